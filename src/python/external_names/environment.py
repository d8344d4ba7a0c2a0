"""The third-party modules a repository imports, read from the interpreter its tests run with.

Run by the product (src/core/names/environment.ts) in a subprocess of that interpreter, never in
the extension host, with one JSON request on standard input and one JSON answer on standard
output:

  {"op": "locate", "tops": [...]}
      -> {"python": {"executable", "version"}, "found": [{"top", "distribution", "version",
          "tops", "stamp"}], "missing": [...]}
      where each top-level import name is found (importlib's finders, nothing imported), which
      distribution ships it (its .dist-info or .egg-info beside it: name, version, the other
      top-level names it ships) and a stamp of its files (paths, sizes, modification times);
      `plugins`: the pytest plugins installed as setuptools entry points (group pytest11) and the
      fixtures each one's module defines (read with `ast`, nothing imported).
  {"op": "read", "distributions": [{"distribution", "version", "tops"}]}
      -> {"python": ..., "read": [{"distribution", "version", "tops", "digest", "document",
          "modules", "compiled", "unparsable"}]}
      each distribution's modules read with the reader `gen:external` uses (python_source.py,
      `ast`, nothing imported), its compiled modules by importing them (dir(), signatures, the
      signature line Cython puts in a docstring), encoded as data/external-names.json is
      (universe.py, schema 2); `digest` is the sha256 of the files read.

Runs on Python 3.6 and later. Importing a compiled module runs its initialisation: the product
calls this with a timeout.
"""

import ast
import hashlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import json
import os
import re
import sys

from .python_source import ClassFacts, ModuleFacts
from .sources import SKIPPED_DIRS, Reading, walk_modules
from .universe import Universe

EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
SOURCE_SUFFIXES = (".py", ".pyi")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Python 3.10 and later name the standard library's modules; before, none is left out.
STDLIB_TOPS = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)


def python_info():
    # An interpreter in a container says where it is: the image, then its path there.
    where = os.environ.get("SCHRODINGER_PYTHON_WHERE", "")
    return {"executable": where + sys.executable, "version": "%d.%d.%d" % tuple(sys.version_info[:3])}


# ---- where a top-level name lives ------------------------------------------------------------

def find_top(top):
    """(folder holding it, entry name in that folder) for a top-level import name, else None."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        locations = [p for p in spec.submodule_search_locations if os.path.isdir(p)]
        if not locations:
            return None
        folder = locations[0]
        return os.path.dirname(folder), os.path.basename(folder)
    if spec.origin and os.path.isfile(spec.origin):
        return os.path.dirname(spec.origin), os.path.basename(spec.origin)
    return None


def entry_top(entry):
    """The import name of a folder entry: `pkg`, `mod.py` -> `mod`, `_x.cpython-311-x86_64-linux-gnu.so` -> `_x`."""
    for suffix in SOURCE_SUFFIXES + EXTENSION_SUFFIXES:
        if entry.endswith(suffix):
            return entry[: -len(suffix)]
    return entry


def metadata_text(folder, entry):
    for name in ("METADATA", "PKG-INFO"):
        path = os.path.join(folder, entry, name)
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
    return ""


def metadata_tops(folder, entry):
    """Top-level names a .dist-info/.egg-info says its distribution ships."""
    path = os.path.join(folder, entry, "top_level.txt")
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            return sorted({line.strip().replace("/", ".").split(".")[0] for line in f if line.strip()})
    path = os.path.join(folder, entry, "RECORD")
    tops = set()
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                first = line.split(",", 1)[0].split("/", 1)
                if len(first) == 2 and not first[0].endswith((".dist-info", ".egg-info", ".data")) and first[0] != "..":
                    tops.add(first[0])
                elif len(first) == 1 and first[0].endswith(SOURCE_SUFFIXES + EXTENSION_SUFFIXES):
                    tops.add(entry_top(first[0]))
    return sorted(t for t in tops if NAME.match(t) and t != "__pycache__")


_distributions = {}


def distributions_in(folder):
    """{top: (distribution, version, tops)} of the metadata folders in `folder`, read once."""
    if folder in _distributions:
        return _distributions[folder]
    found = {}
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        entries = []
    for entry in entries:
        if not entry.endswith((".dist-info", ".egg-info")) or not os.path.isdir(os.path.join(folder, entry)):
            continue
        text = metadata_text(folder, entry)
        name = re.search(r"^Name:\s*(\S+)", text, re.M)
        version = re.search(r"^Version:\s*(\S+)", text, re.M)
        if not name:
            continue
        tops = metadata_tops(folder, entry)
        for top in tops:
            found.setdefault(top, (name.group(1), version.group(1) if version else "", tops))
    _distributions[folder] = found
    return found


def module_files(folder, entry):
    """Every file of a top-level module or package (sorted relative paths), caches left out."""
    start = os.path.join(folder, entry)
    if os.path.isfile(start):
        return [entry]
    files = []
    for dirpath, dirnames, filenames in os.walk(start):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES + EXTENSION_SUFFIXES):
                files.append(os.path.relpath(os.path.join(dirpath, name), folder))
    return files


def stamp(folder, entries):
    digest = hashlib.sha256()
    for entry in entries:
        for rel in module_files(folder, entry):
            st = os.stat(os.path.join(folder, rel))
            digest.update(("%s\0%d\0%d\0" % (rel, st.st_size, int(st.st_mtime))).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:32]


def located(top):
    """(folder, entries of the distribution's tops found there, distribution, version, tops) or None."""
    where = find_top(top)
    if where is None:
        return None
    folder, entry = where
    distribution, version, tops = distributions_in(folder).get(top, (top, "", [top]))
    entries = []
    for name in sorted(set(tops) | {top}):
        found = find_top(name) if name != top else where
        if found is not None and found[0] == folder:
            entries.append(found[1])
    return folder, entries, distribution, version, sorted({entry_top(e) for e in entries})


# ---- pytest plugins ---------------------------------------------------------------------------

def entry_point_modules(group):
    """Modules named by the entry points of `group` in the .dist-info/.egg-info folders on sys.path."""
    modules = set()
    for folder in sys.path:
        try:
            entries = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in entries:
            path = os.path.join(folder, entry, "entry_points.txt")
            if not entry.endswith((".dist-info", ".egg-info")) or not os.path.isfile(path):
                continue
            section = None
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    line = line.strip()
                    if line.startswith("["):
                        section = line.strip("[]").strip()
                    elif section == group and "=" in line:
                        target = line.split("=", 1)[1].split(":", 1)[0].strip()
                        if all(NAME.match(p) for p in target.split(".")):
                            modules.add(target)
    return sorted(modules)


def module_source(dotted):
    """The source file of a dotted module, found without importing anything, or None."""
    parts = dotted.split(".")
    where = find_top(parts[0])
    if where is None:
        return None
    base = os.path.join(where[0], where[1])
    if len(parts) == 1:
        candidates = [base] if os.path.isfile(base) else [os.path.join(base, "__init__.py")]
    else:
        inner = os.path.join(base, *parts[1:])
        candidates = [inner + ".py", os.path.join(inner, "__init__.py")]
    for candidate in candidates:
        if candidate.endswith(".py") and os.path.isfile(candidate):
            return candidate
    return None


def fixture_maker(node):
    """Whether `node` is `fixture` or `fixture(...)` (`pytest.fixture`, `yield_fixture` too), and the `name=` it gives."""
    call = node if isinstance(node, ast.Call) else None
    target = call.func if call else node
    last = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
    if last not in ("fixture", "yield_fixture"):
        return False, None
    given = [k.value for k in (call.keywords if call else []) if k.arg == "name"]
    value = getattr(given[0], "value", getattr(given[0], "s", None)) if given else None
    return True, value if isinstance(value, str) else None


def imported_module(package, node):
    """The module `from ... import` reads (relative to `package` for `from .x import`), or None."""
    if not node.level:
        return node.module
    parts = package.split(".") if package else []
    keep = len(parts) - (node.level - 1)
    if keep < 1:
        return None
    return ".".join(parts[:keep] + ([node.module] if node.module else []))


def fixture_names(dotted, memo=None):
    """Names of the fixtures a module holds, as pytest collects them from its namespace: functions
    decorated with `fixture` (`name=` when given), names assigned a fixture made by a call
    (`mocker = pytest.fixture()(_mocker)`), and the fixtures it imports from the other modules of
    its package (`from pkg.plugin import mocker`, `*`), read with `ast`, nothing imported."""
    memo = {} if memo is None else memo
    if dotted in memo:
        return memo[dotted]
    memo[dotted] = []
    path = module_source(dotted)
    if path is None:
        return []
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return []
    package = dotted if os.path.basename(path) == "__init__.py" else dotted.rpartition(".")[0]
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                made, name = fixture_maker(decorator)
                if made:
                    names.add(name or node.name)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            # `pytest.fixture()(f)`, `pytest.fixture(scope="class")(f)`, `pytest.fixture(f)`.
            value = node.value
            made, name = fixture_maker(value.func) if isinstance(value.func, ast.Call) else fixture_maker(value) if value.args else (False, None)
            if made:
                names.add(name or node.targets[0].id)
        elif isinstance(node, ast.ImportFrom):
            # Only the plugin's own modules: pytest's and the standard library's hold no fixtures of it.
            source = imported_module(package, node)
            if source is None or source.split(".")[0] != dotted.split(".")[0]:
                continue
            held = set(fixture_names(source, memo))
            for alias in node.names:
                if alias.name == "*":
                    names.update(name for name in held if not name.startswith("_"))
                elif alias.name in held:
                    names.add(alias.asname or alias.name)
    memo[dotted] = sorted(names)
    return memo[dotted]


def pytest_plugins():
    """Every pytest11 entry point's module (setuptools plugins pytest loads itself) and its fixtures."""
    plugins = []
    memo = {}
    for dotted in entry_point_modules("pytest11"):
        fixtures = fixture_names(dotted, memo)
        if fixtures:
            plugins.append({"module": dotted, "top": dotted.split(".")[0], "fixtures": fixtures})
    return plugins


def locate(tops):
    found, missing = [], []
    for top in sorted(set(tops)):
        where = located(top)
        if where is None:
            missing.append(top)
            continue
        folder, entries, distribution, version, dist_tops = where
        found.append({"top": top, "distribution": distribution, "version": version, "tops": dist_tops,
                      "stamp": stamp(folder, entries)})
    return {"python": python_info(), "found": found, "missing": missing, "plugins": pytest_plugins()}


# ---- compiled modules -------------------------------------------------------------------------

def doc_parameters(obj, name):
    """Parameter names of the `name(...)` line Cython's embedsignature puts first in a docstring."""
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return None
    at = doc.find(name + "(")
    if at < 0 or doc[:at].strip():
        return None
    depth, start, parts, i = 0, at + len(name) + 1, [], at + len(name)
    for i in range(at + len(name), len(doc)):
        ch = doc[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                parts.append(doc[start:i])
                break
        elif ch == "," and depth == 1:
            parts.append(doc[start:i])
            start = i + 1
    else:
        return None
    names = set()
    for part in parts:
        match = re.match(r"\s*\**\s*([A-Za-z_][A-Za-z0-9_]*)", part)
        if match and match.group(1) not in ("self", "cls"):
            names.add(match.group(1))
    return names


def parameters_of(obj, name):
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return doc_parameters(obj, name)
    return {p.name for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "cls")}


def runtime_module(dotted):
    """ModuleFacts of a compiled module from importing it, or None when it does not import."""
    try:
        module = importlib.import_module(dotted)
    except BaseException:  # noqa: B902 - any failure of a module's initialisation
        return None
    facts = ModuleFacts(dotted, False, False)
    for name in sorted(dir(module)):
        facts.names.add(name)
        try:
            value = getattr(module, name)
        except BaseException:  # noqa: B902
            continue
        if inspect.isclass(value) and getattr(value, "__module__", None) == dotted:
            facts.classes[name] = runtime_class(value, facts)
        elif callable(value):
            facts.params |= parameters_of(value, name) or set()
    return facts


def runtime_class(cls, module_facts):
    facts = ClassFacts()
    ignored = set(dir(object))
    for name in sorted(dir(cls)):
        if name in ignored and name not in ("__init__", "__new__"):
            continue
        if name not in ignored:
            facts.names.add(name)
        try:
            value = inspect.getattr_static(cls, name)
        except AttributeError:
            continue
        if callable(value) or isinstance(value, (staticmethod, classmethod)):
            facts.params |= parameters_of(getattr(cls, name, value), name) or set()
    init = parameters_of(cls, cls.__name__)
    if init is not None:
        facts.init = set(init)
        facts.params |= init
    for base in cls.__bases__:
        if base is object:
            continue
        module = getattr(base, "__module__", "") or ""
        if module == module_facts.name:
            facts.bases.append(base.__qualname__)
        elif module:
            top = module.split(".")[0]
            module_facts.bindings.setdefault(top, ("abs", top))
            facts.bases.append(module + "." + base.__qualname__)
    return facts


# ---- reading a distribution -------------------------------------------------------------------

EMPTY_RUNTIME = {"modules": {}, "classes": {}, "bases": {}, "aliases": {}, "owners": {}, "keywords": [],
                 "softKeywords": [], "builtins": [], "builtinTypeAttributes": [], "stdlibModules": []}


def compiled_modules(folder, entry):
    """Dotted names of the compiled modules of a top-level module or package that have no source."""
    names = []
    for rel in module_files(folder, entry):
        if not rel.endswith(EXTENSION_SUFFIXES):
            continue
        parts = rel.split(os.sep)
        if any(p in SKIPPED_DIRS for p in parts[:-1]):
            continue
        parts[-1] = entry_top(parts[-1])
        if parts[-1] == "__init__":
            parts.pop()
        if all(NAME.match(p) for p in parts):
            dotted = ".".join(parts)
            if not any(os.path.isfile(os.path.join(folder, *parts[:-1], parts[-1] + s)) for s in SOURCE_SUFFIXES):
                names.append(dotted)
    return names


def read_distribution(request):
    reading = Reading()
    digest = hashlib.sha256()
    compiled = []
    dist_tops = []
    for top in sorted(request["tops"]):
        where = find_top(top)
        if where is None:
            continue
        folder, entry = where
        dist_tops.append(top)
        for rel in module_files(folder, entry):
            digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
            with open(os.path.join(folder, rel), "rb") as f:
                digest.update(hashlib.sha256(f.read()).digest())
        reading.read_tree("installed", folder, entry)
        compiled += compiled_modules(folder, entry)
    for dotted in compiled:
        facts = runtime_module(dotted)
        if facts is not None:
            reading.modules[("installed", dotted)] = facts
    runtime = dict(EMPTY_RUNTIME, python=python_info()["version"])
    universe = Universe(runtime, reading)
    header = {"sources": {"environment": {"version": "%s %s" % (request["distribution"], request["version"]),
                                           "modules": len(reading.modules),
                                           "classes": sum(len(f.classes) for f in reading.modules.values())}}}
    document = universe.encode(header, set(), [(request["distribution"], request["version"], "environment", dist_tops)])
    # The modules outside it that its code imports, with the names it reaches in each: one of them
    # may be the repository it is read for (soupsieve imports bs4 and checks `bs4.Tag`).
    foreign = {}
    for facts in reading.modules.values():
        for top, names in facts.foreign.items():
            if top not in dist_tops and top not in STDLIB_TOPS:
                foreign.setdefault(top, set()).update(n for n in names if NAME.match(n))
    document["imports"] = {top: sorted(foreign[top]) for top in sorted(foreign)}
    # The attribute names its code uses: on the objects a caller hands it too (soupsieve's `el.descendants`).
    document["usedAttributes"] = sorted(set().union(*(f.used_attributes for f in reading.modules.values())))
    # The keywords its calls give: to the repository's callables too, where it imports the repository.
    document["callKeywords"] = sorted(set().union(*(f.keywords for f in reading.modules.values())))
    return {"distribution": request["distribution"], "version": request["version"], "tops": dist_tops,
            "digest": "sha256:" + digest.hexdigest(), "document": document, "modules": len(reading.modules),
            "compiled": len(compiled), "unparsable": sum(len(p) for p in reading.unparsable.values())}


def main():
    request = json.loads(sys.stdin.read())
    if request.get("op") == "locate":
        answer = locate(request["tops"])
    elif request.get("op") == "read":
        answer = {"python": python_info(), "read": [read_distribution(d) for d in request["distributions"]]}
    else:
        sys.exit("environment: unknown request")
    sys.stdout.write(json.dumps(answer, sort_keys=True, separators=(",", ":"), ensure_ascii=True))
    sys.stdout.write("\n")
