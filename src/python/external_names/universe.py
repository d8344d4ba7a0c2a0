"""Merges the runtime introspection and the source-read modules into one universe of external
names, resolves bases and public aliases to qualified class names, and encodes it (schema 2).

Schema 2.  Names live once in the string table; everything else refers to them by index.  The
table is `strings` (the names the run-time records use, sorted, joined by one space) followed by
`moreStrings` (all others, likewise).  An index list is "packed": each index is `width` digits of
the alphabet `digits`, most significant first, no separators; lists of names are sorted by
index.  `absent` ("!") stands for a list that does not exist, unlike an empty one.
  schema, python             2, CPython's version
  sources                    {source: {version, modules, classes, unparsable, ...}} what was read
  distributions              [[distribution, version, source, packed tops]] third-party packages
  keywords, softKeywords, builtins, builtinTypeAttributes, stdlibModules   packed, as in schema 1
                             (runtime introspection)
  stdlibTops                 packed: top-level names of the standard library (runtime and typeshed)
  moduleNames                packed: the name of each module record, in record order
  modules                    module records, joined by `recordSeparator`, fields by
                             `fieldSeparator`: names read from sources (less the run-time ones),
                             parameters of its functions, hooks (names it looks up on what its
                             callers hand it that nothing read with it defines: `_mpmath_`)
  runtimeModules             records: module record (1 index), the names dir() gave at run time
  classNames                 packed pairs per class record: module record, name inside the module
  classes                    class records: names read from sources (less the run-time ones),
                             bases (class record indices), parameters (of all methods),
                             __init__/__new__ parameters | absent (defines neither), forwards
                             ("1": they take *args/**kwargs, so the bases' parameters apply too)
  runtimeClasses             records: class record, the names dir() gave at run time (less object's)
  aliases                    packed triples: module record, name, class record (a public name ->
                             the qualified class it is)
The run-time records alone give the schema-1 view (CPython's runtime introspection).
"""

import builtins
import sys

from .python_source import ModuleFacts
from .sources import SOURCE_NAMES, merge_class, merge_module

MAX_DEPTH = 12
# Digits of the packed index lists: each index is `width` digits of this alphabet, most
# significant first, no separators.
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
FIELD_SEPARATOR = ","
RECORD_SEPARATOR = ";"
ABSENT = "!"  # __init__/__new__ parameters of a class that defines neither (unlike an empty list)


class Universe:
    def __init__(self, runtime, reading):
        self.runtime = runtime
        self.modules = {}
        self.classes = {}  # qualified -> ClassFacts
        self.class_module = {}  # qualified -> module that defines it
        order = {s: i for i, s in enumerate(SOURCE_NAMES)}
        for (source, dotted) in sorted(reading.modules, key=lambda k: (order[k[0]], k[1])):
            facts = reading.modules[(source, dotted)]
            mine = self.modules.get(dotted)
            if mine is None:
                copy = ModuleFacts(dotted, facts.is_package, facts.is_stub)
                merge_module(copy, facts)
                self.modules[dotted] = copy
            else:
                merge_module(mine, facts)
        for dotted in sorted(self.modules):
            for qual, cls in self.modules[dotted].classes.items():
                key = dotted + "." + qual
                if key in self.classes:
                    merge_class(self.classes[key], cls)
                else:
                    self.classes[key] = cls
                    self.class_module[key] = dotted
        self.add_submodule_names()
        self.expand_stars()
        self.resolve_bases()
        self.admit_reads()
        self.aliases = self.find_aliases()
        self.hooks = self.find_hooks()

    # ---- modules ------------------------------------------------------------------------------

    def add_submodule_names(self):
        for dotted in sorted(self.modules):
            parent, _, last = dotted.rpartition(".")
            if parent in self.modules:
                self.modules[parent].names.add(last)

    def exports(self, dotted):
        facts = self.modules[dotted]
        if facts.all is not None:
            return set(facts.all)
        return {n for n in facts.names if not n.startswith("_")}

    def expand_stars(self):
        """`from m import *`: m's exported names, parameters and bindings, to a fixpoint."""
        changed = True
        while changed:
            changed = False
            for dotted in sorted(self.modules):
                facts = self.modules[dotted]
                for star in facts.stars:
                    if star not in self.modules or star == dotted:
                        continue
                    exported = self.exports(star)
                    params = self.modules[star].params
                    if not exported <= facts.names or not params <= facts.params:
                        facts.names |= exported
                        facts.params |= params
                        changed = True
                    for name in sorted(exported):
                        if name not in facts.bindings and (dotted + "." + name) not in self.classes:
                            facts.bindings[name] = ("abs", star + "." + name)
                            changed = True

    # ---- resolution ---------------------------------------------------------------------------

    def module_prefix(self, dotted):
        """Longest known module that `dotted` starts with, and the remaining components."""
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            head = ".".join(parts[:i])
            if head in self.modules:
                return head, parts[i:]
        return None, parts

    def resolve(self, dotted, depth=0):
        """Qualified name of the class `dotted` refers to, or None."""
        if dotted in self.classes:
            return dotted
        if depth > MAX_DEPTH:
            return None
        module, rest = self.module_prefix(dotted)
        if module is None:
            return None
        binding = self.modules[module].bindings.get(rest[0])
        if binding is None:
            return None
        target = binding[1] if binding[0] == "abs" else self.in_scope(module, binding[1])
        if target is None or target == dotted:
            return None
        return self.resolve(".".join([target] + rest[1:]), depth + 1)

    def in_scope(self, module, expr, depth=0):
        """What a dotted expression written in `module` names, as an absolute dotted name."""
        if depth > MAX_DEPTH:
            return None
        first, _, rest = expr.partition(".")
        tail = "." + rest if rest else ""
        if (module + "." + first) in self.classes:
            return module + "." + first + tail
        binding = self.modules[module].bindings.get(first) if module in self.modules else None
        if binding is not None:
            target = binding[1] if binding[0] == "abs" else None
            if target is not None:
                return target + tail
            return self.in_scope(module, binding[1] + tail, depth + 1)
        if hasattr(builtins, first):
            return "builtins." + expr
        return module + "." + expr

    def resolve_bases(self):
        for key in sorted(self.classes):
            cls = self.classes[key]
            module = self.class_module[key]
            resolved = []
            for base in cls.bases:
                absolute = self.in_scope(module, base) or base
                qualified = self.resolve(absolute) or absolute
                if qualified != key and qualified not in resolved:
                    resolved.append(qualified)
            cls.bases = resolved
        for key in sorted(self.runtime["bases"]):
            if key in self.classes:
                cls = self.classes[key]
                cls.bases += [b for b in self.runtime["bases"][key] if b not in cls.bases and b != key]

    def admit_reads(self):
        """A name a class's methods only read through `self` is its own where every ancestor is of its
        package, the standard library or builtins: set from outside (mpmath's `_ctxdata`) or a hook.
        Under a base of another package (pytest's plugin manager under pluggy's) it may be that base's."""
        stdlib = {m.split(".")[0] for m in self.runtime["stdlibModules"]} | set(getattr(sys, "stdlib_module_names", ())) | {"builtins"}
        own = {}

        def admitted(key, seen):
            if key in own:
                return own[key]
            if key in seen or key not in self.classes:
                return False
            seen.add(key)
            top = key.split(".")[0]
            result = all(base.split(".")[0] in stdlib or (base.split(".")[0] == top and admitted(base, seen))
                         for base in self.classes[key].bases)
            own[key] = result
            return result

        for key in sorted(self.classes):
            cls = self.classes[key]
            if cls.reads and admitted(key, set()):
                cls.names |= cls.reads

    def find_hooks(self):
        """Per module, the names it looks up on what its callers hand it that nothing read with it
        defines (`hasattr(x, "_mpmath_")`): hooks that other code's objects provide."""
        defined = set()
        for facts in self.modules.values():
            defined |= facts.names
        for key, cls in self.classes.items():
            defined |= cls.names
            defined.add(key.rpartition(".")[2])
        return {dotted: facts.lookups - defined for dotted, facts in self.modules.items() if facts.lookups - defined}

    def find_aliases(self):
        aliases = {}
        for dotted in sorted(self.modules):
            for name in sorted(self.modules[dotted].names):
                public = dotted + "." + name
                if public in self.classes or public in self.runtime["classes"]:
                    continue
                target = self.resolve(public)
                if target is not None:
                    aliases[public] = target
        for public in sorted(self.runtime["aliases"]):
            target = self.runtime["aliases"][public]
            if public in self.classes:
                # The same class under two names (typeshed's io.StringIO, runtime's _io.StringIO):
                # one gets the other's members through its bases.
                cls = self.classes[public]
                if target != public and target not in cls.bases:
                    cls.bases.append(target)
            elif public not in self.runtime["classes"]:
                aliases.setdefault(public, target)
        return aliases

    def count(self, reading, source):
        modules = [f for (s, _), f in reading.modules.items() if s == source]
        return {"modules": len(modules), "classes": sum(len(f.classes) for f in modules),
                "unparsable": len(reading.unparsable.get(source, []))}

    # ---- encoding -----------------------------------------------------------------------------

    def encode(self, header, stdlib_tops, distributions):
        runtime = self.runtime
        owners = dict(self.class_module)
        for key, module in runtime["owners"].items():
            owners.setdefault(key, module)
        class_keys = sorted(set(self.classes) | set(runtime["classes"]))
        module_keys = sorted(set(self.modules) | set(runtime["modules"]) | set(owners.values()))
        module_index = {m: i for i, m in enumerate(module_keys)}
        class_index = {k: i for i, k in enumerate(class_keys)}

        # What the schema-1 members read comes first, so that they decode only that part.
        first = set(runtime["modules"])
        for key in ("keywords", "softKeywords", "builtins", "builtinTypeAttributes", "stdlibModules"):
            first.update(runtime[key])
        for key in runtime["classes"]:
            first |= {owners[key], key[len(owners[key]) + 1:]}
        for names in list(runtime["modules"].values()) + list(runtime["classes"].values()):
            first.update(names)
        strings = set(module_keys) | stdlib_tops
        for key in class_keys:
            strings.add(key[len(owners[key]) + 1:])
        for facts in self.modules.values():
            strings |= facts.names | facts.params
        for hooks in self.hooks.values():
            strings |= hooks
        for cls in self.classes.values():
            strings |= cls.names | cls.params | (cls.init or set())
        for _, _, _, tops in distributions:
            strings.update(tops)
        first_part = sorted(first)
        more_part = sorted(strings - first)
        table = first_part + more_part
        index = {s: i for i, s in enumerate(table)}
        width = 1
        while len(DIGITS) ** width <= max(len(table), len(class_keys), len(module_keys)):
            width += 1

        def pack(numbers):
            out = []
            for n in numbers:
                digits = []
                for _ in range(width):
                    n, d = divmod(n, len(DIGITS))
                    digits.append(DIGITS[d])
                out.append("".join(reversed(digits)))
            return "".join(out)

        def ids(names):
            return pack(sorted(index[n] for n in set(names)))

        def source_names(number, seen, read, runtime_records):
            """The names read from sources that dir() did not give; dir()'s go to their own record."""
            if seen is not None:
                runtime_records.append([pack([number]), ids(seen)])
            return ids(read - set(seen or ()))

        modules, runtime_modules = [], []
        for number, dotted in enumerate(module_keys):
            facts = self.modules.get(dotted)
            names = source_names(number, runtime["modules"].get(dotted), facts.names if facts else set(), runtime_modules)
            modules.append([names, ids(facts.params if facts else ()), ids(self.hooks.get(dotted, ()))])
        classes, runtime_classes, class_names = [], [], []
        for number, key in enumerate(class_keys):
            cls = self.classes.get(key)
            names = source_names(number, runtime["classes"].get(key), cls.names if cls else set(), runtime_classes)
            bases = cls.bases if cls is not None else runtime["bases"].get(key, [])
            owner = owners[key]
            class_names += [module_index[owner], index[key[len(owner) + 1:]]]
            init = None if cls is None else cls.init
            classes.append([names, pack([class_index[b] for b in bases if b in class_index and b != key]),
                            ids(cls.params if cls else ()), ABSENT if init is None else ids(init),
                            "1" if cls is not None and cls.forwards else ""])
        aliases = []
        for public in sorted(self.aliases):
            module, _, name = public.rpartition(".")
            target = self.aliases[public]
            if module in module_index and name in index and target in class_index:
                aliases += [module_index[module], index[name], class_index[target]]

        def blob(records):
            return RECORD_SEPARATOR.join(FIELD_SEPARATOR.join(r) for r in records)

        doc = dict(header)
        doc.update({
            "schema": 2,
            "python": runtime["python"],
            "digits": DIGITS,
            "width": width,
            "strings": " ".join(first_part),
            "moreStrings": " ".join(more_part),
            "keywords": ids(runtime["keywords"]),
            "softKeywords": ids(runtime["softKeywords"]),
            "builtins": ids(runtime["builtins"]),
            "builtinTypeAttributes": ids(runtime["builtinTypeAttributes"]),
            "stdlibModules": ids(runtime["stdlibModules"]),
            "stdlibTops": ids(stdlib_tops),
            "distributions": [[name, version, source, ids(tops)] for name, version, source, tops in distributions],
            "fieldSeparator": FIELD_SEPARATOR,
            "recordSeparator": RECORD_SEPARATOR,
            "absent": ABSENT,
            "moduleNames": pack(index[m] for m in module_keys),
            "modules": blob(modules),
            "runtimeModules": blob(runtime_modules),
            "classNames": pack(class_names),
            "classes": blob(classes),
            "runtimeClasses": blob(runtime_classes),
            "aliases": pack(aliases),
        })
        return doc
