"""Where the source-read facts come from: CPython's own library files and typeshed (stdlib and
third-party stubs, as shipped inside a pinned `pyright` npm package). Installed third-party
packages are read from the repository's own interpreter at build time (environment.py), with
the source name "installed"."""

import os
import re
import subprocess
import sys
import sysconfig
import tarfile

from .python_source import read_module

PYRIGHT_VERSION = "1.1.414"

# The source-read sources, in merge order: stubs first, so that their bindings win.
SOURCE_NAMES = ["typeshed-stdlib", "typeshed-stubs", "cpython-source", "installed"]

# Folders never read: test suites, applications and data of the standard library.
SKIPPED_DIRS = {"test", "tests", "idle_test", "__pycache__", "site-packages", "dist-packages", "idlelib",
                "turtledemo", "pydoc_data", "@tests"}


class Reading:
    """Module facts read so far, by dotted module name, with counts per source."""

    def __init__(self):
        self.modules = {}  # (source, dotted) -> ModuleFacts; several sources may give the same module
        self.unparsable = {}  # source -> paths

    def read_file(self, source, dotted, path, is_package):
        try:
            with open(path, "rb") as f:
                text = f.read()
            facts = read_module(dotted, text, is_package, path.endswith(".pyi"))
        except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, OSError):
            self.unparsable.setdefault(source, []).append(path)
            return
        previous = self.modules.get((source, dotted))
        if previous is None:
            self.modules[(source, dotted)] = facts
        else:
            merge_module(previous, facts)

    def read_tree(self, source, root, prefix=""):
        """Every .py/.pyi under `root` (a folder of top-level modules and packages)."""
        for path, dotted, is_package in walk_modules(root, prefix):
            self.read_file(source, dotted, path, is_package)


def merge_module(into, other):
    """A module given both as .py and .pyi (numpy): the union of both."""
    into.names |= other.names
    into.params |= other.params
    into.lookups |= other.lookups
    into.used_attributes |= other.used_attributes
    into.keywords |= other.keywords
    for top, names in other.foreign.items():
        into.foreign.setdefault(top, set()).update(names)
    for k, v in other.bindings.items():
        into.bindings.setdefault(k, v)
    into.stars += [s for s in other.stars if s not in into.stars]
    if into.all is None:
        into.all = other.all
    elif other.all is not None:
        into.all = into.all + [n for n in other.all if n not in into.all]
    for q, cls in other.classes.items():
        mine = into.classes.get(q)
        if mine is None:
            into.classes[q] = cls
        else:
            merge_class(mine, cls)


def merge_class(into, other):
    into.names |= other.names
    into.reads |= other.reads
    into.bases += [b for b in other.bases if b not in into.bases]
    into.params |= other.params
    if other.init is not None:
        into.init = (into.init or set()) | other.init
    into.forwards = into.forwards or other.forwards


def module_name(rel_parts):
    """('unittest', '__init__.pyi') -> ('unittest', True); ('os', 'path.pyi') -> ('os.path', False)."""
    parts = list(rel_parts)
    last = parts[-1].rsplit(".", 1)[0]
    if last == "__init__":
        return ".".join(parts[:-1]), True
    parts[-1] = last
    return ".".join(parts), False


def without_stubs_suffix(name):
    return name[: -len("-stubs")] if name.endswith("-stubs") else name


def walk_modules(root, prefix=""):
    """(path, dotted module name, is_package) in sorted order; `prefix` is a file or folder
    name directly under `root` to restrict the walk to one top-level module."""
    start = os.path.join(root, prefix) if prefix else root
    if os.path.isfile(start):
        dotted, is_package = module_name([prefix])
        yield start, dotted, is_package
        return
    for dirpath, dirnames, filenames in os.walk(start):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and without_stubs_suffix(d).isidentifier())
        rel = os.path.relpath(dirpath, root)
        rel_parts = [] if rel == "." else [without_stubs_suffix(p) for p in rel.split(os.sep)]
        for name in sorted(filenames):
            stem, ext = os.path.splitext(name)
            if ext not in (".py", ".pyi") or not stem.isidentifier():
                continue
            if not rel_parts and prefix == "" and stem == "__init__":
                continue
            dotted, is_package = module_name(rel_parts + [name])
            yield os.path.join(dirpath, name), dotted, is_package


# ---- CPython's library ----------------------------------------------------------------------

def read_cpython_library(reading, stdlib_top_names):
    """The .py files of CPython's library directory (test suites and applications left out)."""
    root = sysconfig.get_paths()["stdlib"]
    for entry in sorted(os.listdir(root)):
        stem = entry[:-3] if entry.endswith(".py") else entry
        if stem not in stdlib_top_names or stem in SKIPPED_DIRS:
            continue
        reading.read_tree("cpython-source", root, entry)


# ---- typeshed -------------------------------------------------------------------------------

def fetch_typeshed(cache_root):
    """typeshed's folder inside pyright@PYRIGHT_VERSION, packed with npm into `cache_root` once."""
    folder = os.path.join(cache_root, "pyright-" + PYRIGHT_VERSION)
    typeshed = os.path.join(folder, "package", "dist", "typeshed-fallback")
    if os.path.isfile(os.path.join(typeshed, "commit.txt")):
        return typeshed
    os.makedirs(folder, exist_ok=True)
    run = subprocess.run(
        ["npm", "pack", "--silent", "pyright@" + PYRIGHT_VERSION, "--pack-destination", folder],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit("gen-external-names: npm pack pyright@%s failed: %s" % (PYRIGHT_VERSION, run.stderr.strip()))
    tgz = os.path.join(folder, run.stdout.strip().splitlines()[-1])
    with tarfile.open(tgz) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith("package/dist/typeshed-fallback/")]
        # The "data" filter (refusing links and paths that leave the folder) where tarfile has it.
        options = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        for member in members:
            if member.issym() or member.islnk() or member.name.startswith("/") or ".." in member.name.split("/"):
                sys.exit("gen-external-names: unexpected entry in the pyright package: %s" % member.name)
        tar.extractall(folder, members=members, **options)
    os.remove(tgz)
    return typeshed


def typeshed_commit(typeshed):
    with open(os.path.join(typeshed, "commit.txt"), encoding="utf-8") as f:
        return f.read().strip()


def stub_entries(folder):
    """(entry, top-level name) of the stub packages and .pyi modules directly in `folder`."""
    for entry in sorted(os.listdir(folder)):
        if os.path.isdir(os.path.join(folder, entry)):
            stem = without_stubs_suffix(entry)
        elif entry.endswith(".pyi"):
            stem = entry[: -len(".pyi")]
        else:
            continue
        if stem.isidentifier() and entry not in SKIPPED_DIRS:
            yield entry, stem


def read_typeshed_stdlib(reading, typeshed):
    """Returns the top-level names of typeshed's stdlib."""
    root = os.path.join(typeshed, "stdlib")
    tops = set()
    for entry, stem in stub_entries(root):
        tops.add(stem)
        reading.read_tree("typeshed-stdlib", root, entry)
    return tops


def read_typeshed_stubs(reading, typeshed):
    """Returns [(distribution, version, tops)] of typeshed's third-party stubs."""
    root = os.path.join(typeshed, "stubs")
    distributions = []
    for dist in sorted(os.listdir(root)):
        folder = os.path.join(root, dist)
        version = ""
        try:
            with open(os.path.join(folder, "METADATA.toml"), encoding="utf-8") as f:
                m = re.search(r'^version\s*=\s*"([^"]*)"', f.read(), re.M)
                version = m.group(1) if m else ""
        except OSError:
            pass
        tops = []
        for entry, stem in stub_entries(folder):
            tops.append(stem)
            reading.read_tree("typeshed-stubs", folder, entry)
        if tops:
            distributions.append((dist, version, sorted(set(tops))))
    return distributions
