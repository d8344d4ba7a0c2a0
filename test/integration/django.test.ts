import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { translatorFor } from '../../src/core/disguise/translator';
import { scanLeaks } from '../../src/core/disguise/leaks';
import { materialize } from '../../src/core/disguise/materialize';
import { readRepository } from '../../src/core/repository/repository';
import { roundTrip } from '../../src/core/disguise/roundtrip';
import { copyTree, DJANGO, PYTHON, requirePath, tempDir } from '../helpers';

test("Debian's Django: byte-exact round trip for several seeds, no leak, under 10% of its names visible", async () => {
  requirePath(DJANGO, 'python3-django');
  const repository = readRepository(DJANGO);
  assert.ok(repository.files.filter((f) => f.path.endsWith('.py')).length >= 850);
  for (const seed of [1, 2, 3]) {
    const { bundle } = await buildBundle(DJANGO, { seed, granularity: 'full' });
    const translator = translatorFor(bundle);
    const report = await roundTrip(repository, bundle);
    assert.deepEqual(report.mismatched, [], `seed ${seed}`);
    assert.equal(report.identical, repository.files.length);
    assert.ok(bundle.statistics.visibleInCodePercent! < 10, `seed ${seed}: ${bundle.statistics.visibleInCodePercent!}% visible`);
    assert.notEqual(bundle.names!.identifiers.django, undefined, 'the package name is renamed');
    for (const cue of ['QuerySet', 'Manager', 'Field', 'Model', 'HttpRequest']) assert.ok(bundle.names!.identifiers[cue], cue);
    if (seed === 1) {
      const view = `${tempDir('django')}/view`;
      await materialize(repository, bundle, view);
      assert.equal(scanLeaks(view, bundle, translatorFor(bundle)).leaks, 0);
    }
  }
});

test("Debian's Django: the definitions granularity leaves more names visible than full", async () => {
  requirePath(DJANGO, 'python3-django');
  const { bundle } = await buildBundle(DJANGO, { seed: 4, granularity: 'definitions' });
  assert.ok(bundle.statistics.visibleInCodePercent! > 10);
  assert.ok(bundle.statistics.visibleInCodePercent! < 60);
});

/** A program written here that runs inside Django's package: settings, migrations and queries on SQLite, i18n, templates, forms, requests and a test client. */
const DJANGO_PROBE = `def run():
    import datetime
    from django.conf import settings
    settings.configure(
        DEBUG=False, USE_I18N=True, USE_L10N=True, USE_TZ=True, TIME_ZONE='UTC', SECRET_KEY='k',
        INSTALLED_APPS=['django.contrib.contenttypes', 'django.contrib.auth'],
        DATABASES={'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': ':memory:'}},
        TEMPLATES=[{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'DIRS': [], 'APP_DIRS': False}],
        ROOT_URLCONF=__name__, ALLOWED_HOSTS=['testserver'],
    )
    import django
    django.setup()
    from django.core.management import call_command
    call_command('migrate', verbosity=0)
    from django.contrib.auth.models import Group, User
    from django.db.models import Count, Q
    g = Group.objects.create(name='staff')
    for i in range(5):
        u = User.objects.create_user('user%d' % i, 'u%d@example.com' % i, 'pw')
        if i % 2:
            u.groups.add(g)
    print(User.objects.filter(Q(username__startswith='user') & ~Q(pk=1)).count())
    print(list(Group.objects.annotate(n=Count('user')).values_list('name', 'n')))
    print(list(User.objects.filter(groups__name='staff').order_by('-pk').values_list('username', flat=True)[:2]))
    print(User.objects.get(username='user3').has_perm('auth.add_user'), Group._meta.model_name, User._meta.label)
    from django.utils import translation
    from django.utils.formats import date_format, get_format
    for lang in ['ar', 'de', 'en-gb', 'es-ve', 'fr', 'zh-hans', 'sr-latn']:
        with translation.override(lang):
            print(lang, get_format('DATE_FORMAT'), date_format(datetime.date(2020, 2, 3)), translation.gettext('This field is required.'))
    from django.template import Context, Template
    t = Template('{% for u in users %}{{ u|upper }}{% if not forloop.last %}, {% endif %}{% endfor %} {{ when|date:"Y-m-d" }} {{ 1234567|filesizeformat }}')
    print(t.render(Context({'users': ['ann', 'bob'], 'when': datetime.date(2021, 5, 6)})))
    from django import forms
    class F(forms.Form):
        name = forms.CharField(max_length=5)
        age = forms.IntegerField(min_value=0)
    f = F({'name': 'toolong', 'age': '-1'})
    print(f.is_valid(), sorted(f.errors.items()))
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email
    try:
        validate_email('bad')
    except ValidationError as e:
        print(e.messages)
    from django.http import HttpResponse, QueryDict
    q = QueryDict('a=1&a=2&b=3')
    print(q.getlist('a'), q.urlencode())
    from django.urls import path, reverse
    global urlpatterns
    urlpatterns = [path('items/<int:pk>/', lambda request, pk: HttpResponse(str(pk)), name='item')]
    print(reverse('item', args=[7]))
    from django.test import Client
    print(Client().get('/items/9/').content)
`;

/** A program of Django's contrib apps and ORM: the admin through the test client (login, lists, search, forms, actions), auth backends and permissions, sessions, redirects, flatpages, sitemaps, serializers, management commands, template tag libraries, cache, signals, expressions. */
const DJANGO_ADMIN_PROBE = `def run():
    import datetime, io, json
    from django.conf import settings
    settings.configure(
        DEBUG=False, USE_I18N=True, USE_TZ=True, TIME_ZONE='UTC', SECRET_KEY='k' * 50,
        INSTALLED_APPS=['django.contrib.admin', 'django.contrib.contenttypes', 'django.contrib.auth', 'django.contrib.sessions',
                        'django.contrib.messages', 'django.contrib.sites', 'django.contrib.flatpages', 'django.contrib.redirects',
                        'django.contrib.humanize', 'django.contrib.staticfiles', 'django.contrib.sitemaps'],
        SITE_ID=1,
        DATABASES={'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': ':memory:'}},
        MIDDLEWARE=['django.middleware.security.SecurityMiddleware', 'django.contrib.sessions.middleware.SessionMiddleware',
                    'django.middleware.common.CommonMiddleware', 'django.middleware.csrf.CsrfViewMiddleware',
                    'django.contrib.auth.middleware.AuthenticationMiddleware', 'django.contrib.messages.middleware.MessageMiddleware',
                    'django.contrib.redirects.middleware.RedirectFallbackMiddleware'],
        TEMPLATES=[{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'DIRS': [], 'APP_DIRS': True,
                    'OPTIONS': {'context_processors': ['django.template.context_processors.request', 'django.contrib.auth.context_processors.auth', 'django.contrib.messages.context_processors.messages']}}],
        ROOT_URLCONF=__name__, ALLOWED_HOSTS=['testserver'], STATIC_URL='/static/',
        CACHES={'default': {'BACKEND': 'django.core.cache.backends.locmem.LocMemCache'}},
        PASSWORD_HASHERS=['django.contrib.auth.hashers.MD5PasswordHasher'],
        AUTH_PASSWORD_VALIDATORS=[{'NAME': 'django.contrib.auth.password_validation.MinimumLengthValidator'}, {'NAME': 'django.contrib.auth.password_validation.CommonPasswordValidator'}, {'NAME': 'django.contrib.auth.password_validation.NumericPasswordValidator'}],
    )
    import django
    django.setup()
    from django.contrib import admin
    from django.urls import path, include
    from django.contrib.sitemaps import GenericSitemap
    from django.contrib.sitemaps.views import sitemap
    from django.contrib.flatpages.models import FlatPage
    global urlpatterns
    urlpatterns = [path('admin/', admin.site.urls), path('sitemap.xml', sitemap, {'sitemaps': {'pages': GenericSitemap({'queryset': FlatPage.objects.all()})}})]
    from django.core.management import call_command
    out = io.StringIO()
    call_command('migrate', verbosity=1, stdout=out)
    print(len(out.getvalue().splitlines()))
    out = io.StringIO(); call_command('showmigrations', 'auth', stdout=out); print(out.getvalue())
    out = io.StringIO(); call_command('sqlmigrate', 'auth', '0001', stdout=out); print(out.getvalue()[:300])
    out = io.StringIO(); call_command('check', stdout=out); print(out.getvalue())
    from django.contrib.auth.models import User, Group, Permission
    from django.contrib.auth import authenticate, password_validation
    from django.core.exceptions import ValidationError
    admin_user = User.objects.create_superuser('root', 'root@example.com', 'Sekrit-pw-123')
    print(authenticate(username='root', password='Sekrit-pw-123') == admin_user, authenticate(username='root', password='x'))
    try:
        password_validation.validate_password('1234')
    except ValidationError as e:
        print(e.messages)
    g = Group.objects.create(name='editors')
    g.permissions.set(Permission.objects.filter(codename__in=['add_user', 'change_group']))
    bob = User.objects.create_user('bob', password='pw'); bob.groups.add(g)
    print(sorted(bob.get_all_permissions()), bob.has_perm('auth.add_user'))
    from django.contrib.auth.tokens import default_token_generator
    print(default_token_generator.check_token(bob, default_token_generator.make_token(bob)))
    from django.contrib.sites.models import Site
    FlatPage.objects.create(url='/about/', title='About', content='<p>hi</p>').sites.add(Site.objects.get_current())
    from django.contrib.redirects.models import Redirect
    Redirect.objects.create(site_id=1, old_path='/old/', new_path='/about/')
    out = io.StringIO(); call_command('dumpdata', 'auth.group', indent=1, stdout=out); data = out.getvalue(); print(data)
    from django.core import serializers
    print(serializers.serialize('xml', Group.objects.all(), fields=['name'])[:400])
    objs = list(serializers.deserialize('json', data)); print([o.object for o in objs])
    print(serializers.serialize('python', [bob], fields=['username', 'is_staff']))
    from django.test import Client
    c = Client()
    print(c.get('/admin/').status_code, c.get('/admin/').url)
    c.force_login(admin_user)
    for url in ['/admin/', '/admin/auth/user/', '/admin/auth/user/?q=bo', '/admin/auth/group/%d/change/' % g.pk, '/admin/flatpages/flatpage/', '/admin/auth/user/add/']:
        r = c.get(url)
        body = r.content.decode()
        print(url, r.status_code, body.count('<tr'), body.count('name="'), 'bob' in body)
    r = c.post('/admin/auth/group/add/', {'name': 'new group', 'permissions': []})
    print(r.status_code, Group.objects.filter(name='new group').exists())
    r = c.post('/admin/auth/user/', {'action': 'delete_selected', '_selected_action': [bob.pk]})
    print(r.status_code, r.content.decode().count('bob'))
    print(c.get('/old/').status_code, c.get('/old/')['Location'])
    print(c.get('/sitemap.xml').content.decode())
    from django.contrib.admin.models import LogEntry
    print([str(e) for e in LogEntry.objects.all()])
    from django.core.cache import cache
    cache.set('k', {'a': 1}, 30); cache.incr('n', 1) if cache.get('n') else cache.set('n', 5); print(cache.get('k'), cache.get_many(['k', 'n']))
    from django.core.paginator import Paginator
    p = Paginator(list(range(23)), 5); print(p.num_pages, list(p.page(5)), list(p.get_elided_page_range(3)))
    from django.contrib.humanize.templatetags import humanize
    print(humanize.intcomma(1234567), humanize.ordinal(23), humanize.apnumber(4), humanize.intword(3400000))
    from django.template import engines
    t = engines['django'].from_string('{% load humanize %}{{ n|intcomma }} {{ d|naturalday }} {% url "admin:index" %} {% now "Y" as y %}{{ y|length }}')
    print(t.render({'n': 10 ** 6, 'd': datetime.date(2000, 1, 1)}))
    from django.dispatch import Signal, receiver
    sig = Signal()
    @receiver(sig)
    def on_sig(sender, **kw):
        return sorted(kw)
    print(sig.send(sender=None, alpha=1, beta=2)[0][1])
    from django.db.models import F, Value, Window, Sum, Case, When, IntegerField, Prefetch, CharField
    from django.db.models.functions import Upper, Concat, RowNumber, Length
    from django.db import transaction
    with transaction.atomic():
        User.objects.bulk_create([User(username='u%d' % i, email='e%d@x.org' % i) for i in range(6)])
    qs = User.objects.annotate(up=Upper('username'), full=Concat('username', Value('@'), 'email', output_field=CharField()), rn=Window(RowNumber(), order_by=F('username').desc()), kind=Case(When(is_superuser=True, then=Value(1)), default=Value(0), output_field=IntegerField())).order_by('username')
    print(list(qs.values_list('up', 'full', 'rn', 'kind')))
    print(list(Group.objects.prefetch_related(Prefetch('user_set', queryset=User.objects.order_by('username'))).values_list('name', flat=True)))
    print(User.objects.aggregate(total=Sum(Length('username'))))
    from django.utils import timesince, dateformat, text, html, crypto, baseconv, http as uhttp
    print(timesince.timesince(datetime.datetime(2020, 1, 1), datetime.datetime(2021, 3, 4)), dateformat.format(datetime.datetime(2020, 5, 6, 7, 8), 'jS F Y H:i'))
    print(text.slugify('Hello Wörld -- ok'), text.Truncator('one two three four').words(2), html.escape('<a>'), html.strip_tags('<b>x</b>y'), uhttp.urlsafe_base64_encode(b'abc'), baseconv.base62.encode(123456))
    from django.core.signing import dumps, loads, Signer
    print(loads(dumps({'a': [1, 2]})), Signer(salt='s').unsign(Signer(salt='s').sign('v')))
    from django.forms import modelform_factory, formset_factory, Form, CharField
    UF = modelform_factory(User, fields=['username', 'email'])
    f = UF({'username': 'bad name!', 'email': 'x'})
    print(f.is_valid(), sorted(f.errors))
    FS = formset_factory(type('NF', (Form,), {'n': CharField()}), extra=2)
    fs = FS({'form-TOTAL_FORMS': '2', 'form-INITIAL_FORMS': '0', 'form-0-n': 'a', 'form-1-n': ''})
    print(fs.is_valid(), fs.errors, fs.management_form.as_p())
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.contrib.staticfiles import finders
    print(finders.find('admin/css/base.css') is not None)
    from django.contrib.auth.hashers import make_password, check_password, identify_hasher
    h = make_password('pw', salt='salty'); print(h, check_password('pw', h), identify_hasher(h).algorithm)
`;

/** A program of Django's class-based views, templates it renders from strings (a locmem loader, `Template(...)`), raw SQL on its tables, and dumps of contrib apps named by label. */
const DJANGO_VIEWS_PROBE = `def run():
    import io, json
    from django.conf import settings
    settings.configure(
        DEBUG=False, USE_TZ=True, SECRET_KEY='k' * 50,
        INSTALLED_APPS=['django.contrib.contenttypes', 'django.contrib.auth', 'django.contrib.sessions', 'django.contrib.messages',
                        'django.contrib.sites', 'django.contrib.flatpages'],
        SITE_ID=1,
        DATABASES={'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': ':memory:'}},
        TEMPLATES=[{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'DIRS': [],
                    'OPTIONS': {'loaders': [('django.template.loaders.locmem.Loader', {'page.html': '{{ m.level_tag }}|{{ m.message }}|{% for u in users %}{{ u.username }},{{ u.is_staff }};{% endfor %}'})]}}],
        ROOT_URLCONF=__name__, ALLOWED_HOSTS=['testserver'],
        MIDDLEWARE=['django.contrib.sessions.middleware.SessionMiddleware', 'django.contrib.messages.middleware.MessageMiddleware'],
    )
    import django
    django.setup()
    from django.core.management import call_command
    call_command('migrate', verbosity=0)
    from django.contrib.auth.models import User
    User.objects.create_user('ann', password='x', is_staff=True)
    User.objects.create_user('ben', password='y')
    from django.views.generic import RedirectView, TemplateView
    from django.urls import path
    global urlpatterns
    urlpatterns = [path('go/', RedirectView.as_view(url='/there/', permanent=False)), path('t/', TemplateView.as_view(template_name='page.html', extra_context={'users': User.objects.order_by('username')}))]
    from django.test import Client
    r = Client().get('/go/'); print(r.status_code, r['Location'])
    print(Client().get('/t/').content)
    from django.template import Template, Context
    from django.contrib.messages.storage.base import Message
    print(Template('{{ m.level_tag }}/{{ m.message }}/{{ m.tags }}').render(Context({'m': Message(25, 'hello', extra_tags='x')})))
    from django.template.loader import render_to_string
    print(render_to_string('page.html', {'m': Message(40, 'bad'), 'users': User.objects.all()}))
    from django.db import connection
    with connection.cursor() as cur:
        cur.execute('SELECT username, is_staff FROM auth_user ORDER BY username')
        print(cur.fetchall())
        cur.execute('SELECT COUNT(*) FROM django_content_type')
        print(cur.fetchone())
    print(list(User.objects.raw('SELECT id, username FROM auth_user WHERE is_staff = %s', [True])))
    from django.contrib.flatpages.models import FlatPage
    from django.contrib.sites.models import Site
    FlatPage.objects.create(url='/a/', title='A', content='c').sites.add(Site.objects.get_current())
    out = io.StringIO(); call_command('dumpdata', 'flatpages', stdout=out); print(out.getvalue())
    out = io.StringIO(); call_command('dumpdata', 'sites', 'auth.user', stdout=out); print(sorted((o['model'], len(o['fields'])) for o in json.loads(out.getvalue())))
`;

/** A program that defines a model of its own: generic list and detail views finding their templates by the model's name, a login view, a feed, mail, model forms and form widgets (select, radio, checkbox templates), a lookup path through a transform, translations and a registered check. */
const DJANGO_MODEL_PROBE = `def run():
    import datetime, io, json
    from django.conf import settings
    settings.configure(
        DEBUG=False, USE_TZ=True, SECRET_KEY='k' * 50, USE_I18N=True, LANGUAGE_CODE='en',
        INSTALLED_APPS=['django.contrib.contenttypes', 'django.contrib.auth', 'django.contrib.sessions', 'django.contrib.messages', 'django.contrib.sites', 'django.contrib.syndication'],
        SITE_ID=1, EMAIL_BACKEND='django.core.mail.backends.locmem.EmailBackend',
        DATABASES={'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': ':memory:'}},
        TEMPLATES=[{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'DIRS': [],
                    'OPTIONS': {'loaders': [('django.template.loaders.locmem.Loader', {
                        'sites/book_list.html': '{% for b in object_list %}{{ b.title }}({{ b.pages }}){% if not forloop.last %},{% endif %}{% endfor %}|{{ page_obj.number }}/{{ paginator.num_pages }}',
                        'sites/book_detail.html': '{{ object.title|title }} {{ book.published|date:"Y" }}',
                        'registration/login.html': '{{ form.username.label }}:{{ form.errors|length }}',
                    })], 'context_processors': ['django.contrib.auth.context_processors.auth']}}],
        ROOT_URLCONF=__name__, ALLOWED_HOSTS=['testserver'],
        MIDDLEWARE=['django.contrib.sessions.middleware.SessionMiddleware', 'django.contrib.auth.middleware.AuthenticationMiddleware', 'django.contrib.messages.middleware.MessageMiddleware'],
    )
    import django
    django.setup()
    from django.db import models, connection
    class Book(models.Model):
        title = models.CharField(max_length=50)
        pages = models.PositiveIntegerField(default=1)
        published = models.DateField(null=True)
        class Meta:
            app_label = 'sites'
            ordering = ['title']
        def get_absolute_url(self):
            return '/books/%d/' % self.pk
        def __str__(self):
            return self.title
    from django.core.management import call_command
    call_command('migrate', verbosity=0)
    with connection.schema_editor() as editor:
        editor.create_model(Book)
    for i, t in enumerate(['Dune', 'Emma', 'Ulysses']):
        Book.objects.create(title=t, pages=100 * (i + 1), published=datetime.date(1900 + i, 1, 1))
    print(Book._meta.db_table, [f.column for f in Book._meta.fields])
    from django.views.generic import ListView, DetailView
    from django.contrib.auth.views import LoginView
    from django.contrib.syndication.views import Feed
    class Latest(Feed):
        title = 'Books'
        link = '/books/'
        description = 'All books'
        def items(self):
            return Book.objects.all()
        def item_title(self, item):
            return item.title.upper()
        def item_description(self, item):
            return '%d pages' % item.pages
    from django.urls import path
    global urlpatterns
    urlpatterns = [path('books/', ListView.as_view(model=Book, paginate_by=2)), path('books/<int:pk>/', DetailView.as_view(model=Book)),
                   path('login/', LoginView.as_view()), path('feed/', Latest())]
    from django.test import Client
    c = Client()
    print(c.get('/books/').content, c.get('/books/?page=2').content, c.get('/books/2/').content)
    print(c.post('/login/', {'username': 'x', 'password': 'y'}).content)
    feed = c.get('/feed/').content.decode()
    print(feed.count('<item>'), 'DUNE' in feed, '200 pages' in feed)
    from django.core import mail
    mail.send_mail('Subject', 'Body', 'a@example.com', ['b@example.com'], auth_user='u', auth_password='p')
    m = mail.EmailMultiAlternatives('S2', 'text', 'a@example.com', ['c@example.com'], headers={'X-Tag': 'q'})
    m.attach_alternative('<b>html</b>', 'text/html'); m.attach('f.txt', 'data', 'text/plain'); m.send()
    print(len(mail.outbox), [(e.subject, e.to, len(e.attachments), getattr(e, 'alternatives', None)) for e in mail.outbox])
    from django import forms
    class BookForm(forms.ModelForm):
        class Meta:
            model = Book
            fields = ['title', 'pages']
        def clean_title(self):
            if self.cleaned_data['title'].islower():
                raise forms.ValidationError('Capitalize it')
            return self.cleaned_data['title']
    f = BookForm({'title': 'dune', 'pages': 'x'})
    print(f.is_valid(), f.errors.as_json(), sorted(f.fields))
    f = BookForm({'title': 'Dune II', 'pages': '3'}); print(f.is_valid(), f.save().pk)
    print(BookForm().as_p())
    class Contact(forms.Form):
        email = forms.EmailField(help_text='where')
        when = forms.DateField(widget=forms.SelectDateWidget(years=[2000]))
        choice = forms.ChoiceField(choices=[('a', 'A'), ('b', 'B')], widget=forms.RadioSelect)
        many = forms.MultipleChoiceField(choices=[(1, 'One'), (2, 'Two')], widget=forms.CheckboxSelectMultiple, required=False)
    print(Contact(initial={'choice': 'b', 'many': [2]}).as_table())
    from django.utils import dateparse, translation
    from django.utils.translation import gettext as _, ngettext
    print(dateparse.parse_duration('1 02:03:04'), dateparse.parse_datetime('2020-01-02T03:04:05+02:00'))
    with translation.override('de'):
        print(_('Yes'), ngettext('%(count)d year', '%(count)d years', 2) % {'count': 2})
    from django.core import checks
    @checks.register('books')
    def check_books(app_configs, **kwargs):
        return [checks.Warning('few books', id='books.W001')] if Book.objects.count() < 10 else []
    out = io.StringIO(); err = io.StringIO()
    call_command('check', tags=['books'], stdout=out, stderr=err); print(out.getvalue(), err.getvalue())
    print(Book.objects.filter(pages__gte=200).values('title', 'pages').order_by('-pages').first(), Book.objects.values_list('published__year', flat=True).order_by('published')[0])
`;

test("Debian's Django: a program run inside its view (migrations and queries, i18n, templates, forms, requests) prints what it prints in the original", async () => {
  await runsAlike(DJANGO_PROBE, 11, 'package');
});

test("Debian's Django in a repository's layout: a program of its admin, auth, sessions, serializers, management commands, template tag libraries and ORM expressions prints what it prints in the original", async () => {
  await runsAlike(DJANGO_ADMIN_PROBE, 12119, 'repository');
});

test("Debian's Django in a repository's layout: class-based views given attributes as keywords, templates rendered from strings of the code and raw SQL print what they print in the original", async () => {
  await runsAlike(DJANGO_VIEWS_PROBE, 12157, 'repository');
});

test("Debian's Django in a repository's layout: a model the program defines, its generic views and templates named after it, forms and their widgets, mail and a feed print what they print in the original", async () => {
  await runsAlike(DJANGO_MODEL_PROBE, 12197, 'repository');
});

/**
 * Runs `probe` (a module with `run()`) inside a copy of Django's package and inside its
 * materialized view, and compares what they print (the view's output translated back). The
 * repository is the package itself (`package`) or a folder holding it (`repository`, as a
 * checkout of Django is).
 */
async function runsAlike(probe: string, seed: number, layout: 'package' | 'repository'): Promise<void> {
  requirePath(DJANGO, 'python3-django');
  const root = tempDir('django-runs');
  const parent = path.join(root, 'original');
  const packageDir = path.join(parent, 'django');
  copyTree(DJANGO, packageDir);
  fs.writeFileSync(path.join(packageDir, 'run_probe.py'), probe);
  const original = spawnSync(PYTHON, ['-c', 'import django.run_probe as p; p.run()'], { cwd: parent, encoding: 'utf8', env: { ...process.env, PYTHONPATH: parent } });
  assert.equal(original.status, 0, original.stderr);
  const repo = layout === 'package' ? packageDir : parent;
  const repository = readRepository(repo);
  const { bundle } = await buildBundle(repo, { seed, granularity: 'full' });
  const translator = translatorFor(bundle);
  const top = bundle.names!.identifiers.django;
  const viewParent = path.join(root, 'view');
  if (layout === 'package') fs.mkdirSync(viewParent);
  await materialize(repository, bundle, layout === 'package' ? path.join(viewParent, top) : viewParent);
  const probePath = layout === 'package' ? 'run_probe.py' : 'django/run_probe.py';
  const module = translator.pathToView(probePath).replace(/\.py$/, '').split('/').pop()!;
  const run = translator.fileToView(probePath, probe).match(/^def (\w+)\(/)![1];
  const disguised = spawnSync(PYTHON, ['-c', `import ${top}.${module} as p; p.${run}()`], { cwd: viewParent, encoding: 'utf8', env: { ...process.env, PYTHONPATH: viewParent } });
  assert.equal(disguised.status, 0, disguised.stderr.slice(-3000));
  assert.equal(translator.toReal(disguised.stdout), original.stdout);
  assert.notEqual(original.stdout.trim(), '');
}
