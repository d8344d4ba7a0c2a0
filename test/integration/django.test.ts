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

test("Debian's Django: a program run inside its view (migrations and queries, i18n, templates, forms, requests) prints what it prints in the original", async () => {
  requirePath(DJANGO, 'python3-django');
  const root = tempDir('django-runs');
  const repo = path.join(root, 'original', 'django');
  copyTree(DJANGO, repo);
  fs.writeFileSync(path.join(repo, 'run_probe.py'), DJANGO_PROBE);
  const original = spawnSync(PYTHON, ['-c', 'import django.run_probe as p; p.run()'], { cwd: path.dirname(repo), encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.dirname(repo) } });
  assert.equal(original.status, 0, original.stderr);
  const repository = readRepository(repo);
  const { bundle } = await buildBundle(repo, { seed: 11, granularity: 'full' });
  const translator = translatorFor(bundle);
  const top = bundle.names!.identifiers.django;
  const view = path.join(root, 'view', top);
  fs.mkdirSync(path.dirname(view));
  await materialize(repository, bundle, view);
  const probe = translator.pathToView('run_probe.py').replace(/\.py$/, '');
  const run = translator.fileToView('run_probe.py', DJANGO_PROBE).match(/^def (\w+)\(/)![1];
  const disguised = spawnSync(PYTHON, ['-c', `import ${top}.${probe} as p; p.${run}()`], { cwd: path.dirname(view), encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.dirname(view) } });
  assert.equal(disguised.status, 0, disguised.stderr.slice(-3000));
  assert.equal(translator.toReal(disguised.stdout), original.stdout);
  assert.notEqual(original.stdout.trim(), '');
});
