#!/usr/bin/env python3
"""Write data/external-names.json: the names that belong to code OUTSIDE a repository, which the
disguiser must never rename.  Sources, all read at generation time:

  cpython-runtime   this interpreter's language and standard library, by importing it (keywords,
                    builtins, dir() of every stdlib module and class); see src/python/external_names/runtime.py
  cpython-source    the .py files of this interpreter's library, read with `ast`
  typeshed-stdlib   typeshed's stdlib stubs and
  typeshed-stubs    its third-party stubs, both as shipped in the pyright npm package (version
                    pinned in src/python/external_names/sources.py, fetched with `npm pack` into
                    .artifacts/cache/)

Third-party packages installed in an environment are not read here: every build reads those the
repository imports from the interpreter its tests run with (src/python/external_names/
environment.py, src/core/names/environment.ts).

Usage:  python3 scripts/gen-external-names.py [output]   (default: data/external-names.json)

Deterministic: same sources -> byte-identical output (sorted keys and lists, compact JSON,
trailing newline).  The output is written atomically.  Counts go to stderr.

The script re-executes itself with ``-I -S -B`` so that only the standard library is importable
(no script dir, no site-packages, no .pth hooks such as setuptools' distutils hijack) and no
bytecode is written.
"""

import os
import sys

_REEXEC_MARK = "_GEN_EXTERNAL_NAMES_CHILD"

if __name__ == "__main__" and not (sys.flags.isolated and sys.flags.no_site):
    # -I ignores PYTHON* env vars, so pass the marker via argv instead.
    if _REEXEC_MARK not in sys.argv:
        os.execv(sys.executable,
                 [sys.executable, "-I", "-S", "-B", os.path.abspath(__file__), _REEXEC_MARK] + sys.argv[1:])

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "src", "python"))

import json  # noqa: E402
import warnings  # noqa: E402

from external_names import sources  # noqa: E402
from external_names.runtime import collect_runtime  # noqa: E402
from external_names.universe import Universe  # noqa: E402


def main():
    warnings.simplefilter("ignore")
    args = [a for a in sys.argv[1:] if a != _REEXEC_MARK]
    output = os.path.abspath(args[0] if args else os.path.join(ROOT, "data", "external-names.json"))

    runtime = collect_runtime()
    runtime_tops = {m.split(".")[0] for m in runtime["stdlibModules"]} | set(sys.stdlib_module_names)

    reading = sources.Reading()
    sources.read_cpython_library(reading, runtime_tops)
    typeshed = sources.fetch_typeshed(os.path.join(ROOT, ".artifacts", "cache"))
    typeshed_tops = sources.read_typeshed_stdlib(reading, typeshed)
    stubs = sources.read_typeshed_stubs(reading, typeshed)

    universe = Universe(runtime, reading)
    stdlib_tops = {m.split(".")[0] for m in runtime["stdlibModules"]} | typeshed_tops
    typeshed_version = "typeshed %s (pyright %s)" % (sources.typeshed_commit(typeshed), sources.PYRIGHT_VERSION)
    counted = {s: universe.count(reading, s) for s in sources.SOURCE_NAMES if s != "installed"}
    header = {"sources": {
        "cpython-runtime": {"version": runtime["python"], "modules": len(runtime["modules"]),
                            "classes": len(runtime["classes"])},
        "cpython-source": dict(counted["cpython-source"], version=runtime["python"]),
        "typeshed-stdlib": dict(counted["typeshed-stdlib"], version=typeshed_version),
        "typeshed-stubs": dict(counted["typeshed-stubs"], version=typeshed_version, distributions=len(stubs)),
    }}
    distributions = [(d, v, "typeshed-stubs", tops) for d, v, tops in stubs]
    doc = universe.encode(header, stdlib_tops, distributions)

    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True) + "\n"
    temporary = output + ".tmp"
    with open(temporary, "w", encoding="ascii") as f:
        f.write(text)
    os.replace(temporary, output)
    for name, facts in sorted(header["sources"].items()):
        print("external-names: %-16s %s" % (name, ", ".join("%s %s" % (k, v) for k, v in sorted(facts.items()))),
              file=sys.stderr)
    for source, paths in sorted(reading.unparsable.items()):
        for path in paths:
            print("external-names: %s: not parsable by ast, left out: %s" % (source, path), file=sys.stderr)
    print("external-names: %d strings, %d modules, %d classes, %d aliases, %d bytes"
          % (doc["strings"].count(" ") + doc["moreStrings"].count(" ") + 2, len(doc["moduleNames"]) // doc["width"],
             len(doc["classNames"]) // (2 * doc["width"]), len(universe.aliases), len(text)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
