"""CPython's language and standard library as seen by importing it: keywords, builtins,
attributes of builtin types, every stdlib module's dir(), every stdlib class's dir() (object's
own attributes removed), its bases, and public aliases of classes (`io.StringIO` is
`_io.StringIO`).

Safety (the caller runs this in an interpreter started with ``-I -S -B``, so only the standard
library is importable and no bytecode is written):
  * Modules known to have import-time side effects (``this`` prints, ``antigravity`` opens a
    browser, ``idlelib``/``turtledemo`` are apps, ``__main__`` submodules run programs) are
    never imported.
  * Each import runs under a 5 s ``signal.alarm`` with fd 0/1/2 redirected to /dev/null; any
    failure is silently skipped.
  * Only modules whose file lives inside the stdlib directory are walked.
"""

import builtins
import contextlib
import importlib
import io
import keyword
import os
import pkgutil
import platform
import signal
import sys
import sysconfig
import types

IMPORT_TIMEOUT_S = 5

# Top-level stdlib names that are never imported (side effects / apps / data).
# They still appear in stdlibModules (they are real stdlib module names), but
# have no entry in "modules".
NO_IMPORT_TOP = {
    "antigravity",  # opens a web browser
    "this",  # prints the Zen of Python
    "__phello__",  # frozen test package
    "__hello__",  # frozen test module
    "idlelib",  # the IDLE application
    "turtledemo",  # demo application
    "pydoc_data",  # data only
}

# Test packages: neither imported nor listed in stdlibModules.
TEST_COMPONENTS = {"test", "tests", "idle_test"}


def is_test_module(name):
    parts = name.split(".")
    if parts[0] in ("test", "idlelib") or any(p in TEST_COMPONENTS for p in parts):
        return True
    # C-level test helpers shipped with CPython (_testcapi, _testbuffer, ...).
    return parts[0].startswith("_test") or parts[0].startswith("_xxtest")


def is_no_import(name):
    parts = name.split(".")
    if parts[0] in NO_IMPORT_TOP or is_test_module(name):
        return True
    # `python -m pkg` entry points run a program when imported.
    return "__main__" in parts


STDLIB_DIRS = sorted({
    os.path.realpath(p)
    for key in ("stdlib", "platstdlib")
    for p in [sysconfig.get_paths().get(key)]
    if p
})
SITE_DIRS = sorted({
    os.path.realpath(p)
    for key in ("purelib", "platlib")
    for p in [sysconfig.get_paths().get(key)]
    if p
})


def in_stdlib_dir(path):
    if not path:
        return False
    real = os.path.realpath(path)
    if any(real == s or real.startswith(s + os.sep) for s in SITE_DIRS):
        return False
    return any(real.startswith(s + os.sep) for s in STDLIB_DIRS)


def is_stdlib_module_object(mod):
    """Built-in / frozen modules have no __file__; file-based ones must live
    in the stdlib directory (guards against site-packages shadowing)."""
    f = getattr(mod, "__file__", None)
    if f is None:
        return True
    return in_stdlib_dir(f)


class _ImportTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _ImportTimeout()


@contextlib.contextmanager
def silenced():
    """Redirect fds 0/1/2 (and the Python-level streams) to /dev/null."""
    for s in (sys.stdout, sys.stderr):
        try:
            s.flush()
        except Exception:
            pass
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    devnull = os.open(os.devnull, os.O_RDWR)
    py_streams = (sys.stdin, sys.stdout, sys.stderr)
    try:
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        sys.stdin = io.StringIO("")
        sys.stdout = io.StringIO()
        sys.stderr = io.StringIO()
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = py_streams
        for fd, s in zip((0, 1, 2), saved):
            os.dup2(s, fd)
            os.close(s)
        os.close(devnull)


def guarded(fn, *args):
    """Run fn under an alarm with output silenced; return (ok, value)."""
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(IMPORT_TIMEOUT_S)
    try:
        with silenced():
            return True, fn(*args)
    except KeyboardInterrupt:
        raise
    except BaseException:  # ImportError, SystemExit, timeout, anything
        return False, None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def try_import(name):
    if is_no_import(name):
        return None
    ok, mod = guarded(importlib.import_module, name)
    if not ok or not isinstance(mod, types.ModuleType):
        return None
    if not is_stdlib_module_object(mod):
        return None
    return mod


def collect_modules():
    """Import every stdlib module (top-level + walked submodules).

    Returns (imported: {name: module}, listed: set of stdlib module names).
    `listed` also keeps names discovered on disk that fail to import on this
    platform (e.g. asyncio.windows_events): they are still stdlib names.
    """
    imported = {}
    listed = set()
    queue = sorted(n for n in sys.stdlib_module_names if not is_test_module(n))
    seen = set()
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        listed.add(name)
        mod = try_import(name)
        if mod is None:
            continue
        imported[name] = mod
        path = getattr(mod, "__path__", None)
        if path is None:
            continue
        try:
            pkg_dirs = [p for p in list(path) if in_stdlib_dir(os.path.join(p, "x"))]
        except Exception:
            continue
        subs = []
        for info in pkgutil.iter_modules(pkg_dirs, name + "."):
            sub = info.name
            if is_test_module(sub) or "__main__" in sub.split("."):
                continue
            subs.append(sub)
        queue.extend(sorted(subs))
        queue.sort()
    # Aliases registered in sys.modules by the modules themselves, e.g.
    # "os.path" (posixpath) or "xml.parsers.expat.errors".
    for name in sorted(sys.modules):
        mod = sys.modules[name]
        if name in imported or not isinstance(mod, types.ModuleType):
            continue
        if name.split(".")[0] not in sys.stdlib_module_names or is_no_import(name):
            continue
        if not is_stdlib_module_object(mod):
            continue
        imported[name] = mod
        listed.add(name)
    return imported, listed


def safe_dir(obj):
    try:
        return [n for n in dir(obj) if isinstance(n, str)]
    except Exception:
        return []


def iter_module_attrs(mod):
    """(name, value) for every attribute listed by dir(), without letting a
    lazy __getattr__ print, warn or hang."""
    out = []
    for n in safe_dir(mod):
        try:
            v = mod.__dict__[n]
        except KeyError:
            ok, v = guarded(getattr, mod, n)
            if not ok:
                continue
        except Exception:
            continue
        out.append((n, v))
    return out


def collect_runtime():
    imported, listed = collect_modules()
    stdlib_modules = sorted(listed)
    stdlib_set = set(stdlib_modules) | set(sys.stdlib_module_names)

    def is_stdlib_modname(m):
        if not isinstance(m, str) or not m:
            return False
        return m in stdlib_set or m.split(".")[0] in sys.stdlib_module_names

    # ---- builtinTypeAttributes -------------------------------------------
    btypes = {v for v in vars(builtins).values() if isinstance(v, type)}
    btypes |= {v for v in vars(types).values() if isinstance(v, type)}
    d = {"a": 1}
    samples = [
        d.keys(), d.values(), d.items(),
        iter(d), iter(d.keys()), iter(d.values()), iter(d.items()),
        reversed(d), reversed(d.keys()), reversed(d.values()), reversed(d.items()),
        iter([]), reversed([]), iter(()), iter(""), iter(b""), iter(bytearray()),
        iter(set()), iter(frozenset()), iter(range(0)), iter(range(1 << 70)),
        iter(memoryview(b"")), iter(lambda: 0, 0),
        (x for x in ()), NotImplemented, Ellipsis, None,
    ]
    btypes |= {type(s) for s in samples}
    builtin_type_attrs = set()
    for t in btypes:
        builtin_type_attrs.update(safe_dir(t))

    # ---- modules / classes --------------------------------------------------
    object_attrs = set(dir(object))
    modules = {}
    classes = {}
    bases = {}
    aliases = {}
    owners = {}  # class key -> its __module__

    def class_key(cls):
        try:
            modname = cls.__module__
            qual = cls.__qualname__
        except Exception:
            return None
        if not is_stdlib_modname(modname) or not isinstance(qual, str):
            return None
        return modname + "." + qual

    def add_class(cls):
        key = class_key(cls)
        if key is None or key in classes:
            return False
        classes[key] = sorted(set(safe_dir(cls)) - object_attrs)
        owners[key] = cls.__module__
        try:
            bases[key] = [k for k in map(class_key, cls.__bases__) if k is not None]
        except Exception:
            bases[key] = []
        return True

    for name in sorted(imported):
        mod = imported[name]
        modules[name] = sorted(set(safe_dir(mod)))
        for attr, v in iter_module_attrs(mod):
            if not isinstance(v, type):
                continue
            key = class_key(v)
            if key is not None and key != name + "." + attr:
                aliases.setdefault(name + "." + attr, key)
            if not add_class(v):
                continue
            # nested classes, one level deep (looked up statically)
            try:
                inner = list(vars(v).values())
            except Exception:
                inner = []
            for iv in inner:
                if isinstance(iv, type):
                    add_class(iv)

    return {
        "python": platform.python_version(),
        "keywords": sorted(set(keyword.kwlist)),
        "softKeywords": sorted(set(keyword.softkwlist)),
        "builtins": sorted(set(dir(builtins))),
        "builtinTypeAttributes": sorted(builtin_type_attrs),
        "stdlibModules": stdlib_modules,
        "modules": modules,
        "classes": classes,
        "bases": bases,
        "aliases": aliases,
        "owners": owners,
    }
