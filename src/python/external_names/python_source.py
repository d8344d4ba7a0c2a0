"""Names a Python module (.py) or stub (.pyi) defines, read with `ast`; nothing is imported.

For the module: its module-level names, the parameter names of its functions, what its
imports and simple assignments bind (to resolve aliases and bases later), the modules it
star-imports and its literal ``__all__``.  For every class (nested ones too): its bases as
written, its attributes (methods, class attributes, annotated instance attributes,
``self.X = ...`` in any method, ``__slots__``, namedtuple fields, and ``self.X`` read as
universe.py admits it), the parameter names of its
methods and, apart, those of ``__init__``/``__new__``.

Parameter names are the ones a caller can write as keywords: positional-only parameters
(before ``/`` or named ``__x`` in stubs), the bound ``self``/``cls`` and ``*args``/``**kwargs``
are left out.

Runs on Python 3.6 and later (the environment reader runs it in the repository's interpreter):
strings are ``ast.Str`` before 3.8, and positional-only parameters exist from 3.8.
"""

import ast
import re

# Decorators that synthesise __init__ from the annotated (or attr.ib) fields of a class.
FIELD_INIT_DECORATORS = {
    "dataclass", "dataclasses.dataclass", "attr.s", "attr.attrs", "attr.define", "attr.frozen",
    "attr.mutable", "attrs.define", "attrs.frozen", "attrs.mutable", "define", "frozen", "mutable",
}
FIELD_INIT_BASES = {"NamedTuple", "typing.NamedTuple", "TypedDict", "typing.TypedDict", "typing_extensions.TypedDict"}
FIELD_CALLS = {"ib", "attrib", "field"}


class ClassFacts:
    __slots__ = ("names", "reads", "bases", "params", "init", "forwards")

    def __init__(self):
        self.names = set()
        self.reads = set()  # read through self, never stored: the class's where its ancestors are of its package (universe.py)
        self.bases = []  # dotted expressions in the module's scope, resolved later
        self.params = set()
        self.init = None  # parameters of __init__/__new__, None when the class defines neither
        self.forwards = False  # __init__/__new__ takes *args/**kwargs (or fields add to the bases')


class ModuleFacts:
    def __init__(self, name, is_package, is_stub):
        self.name = name
        self.is_package = is_package
        self.is_stub = is_stub
        self.names = set()
        self.params = set()
        # local name -> ("abs", dotted) for imports, ("local", dotted) for `X = a.b` assignments
        self.bindings = {}
        self.stars = []
        self.all = None
        self.classes = {}  # qualified name inside the module ("Outer.Inner") -> ClassFacts
        # Names the module looks up by name on what its callers hand it (`hasattr(x, "_mpmath_")`):
        # where nothing read with it defines one, a hook for others' objects (universe.py).
        self.lookups = set()
        # Top-level module it imports -> the names it reaches in it; the attribute names it uses, the keywords it gives (`outward_uses`).
        self.foreign = {}
        self.used_attributes = set()
        self.keywords = set()


def walk(node):
    """Every node of the tree under `node` (itself too), in no particular order, but for the
    expression contexts (`Load`, `Store`): `ast.walk` at twice its speed."""
    stack = [node]
    pop, push = stack.pop, stack.append
    node_type = ast.AST
    while stack:
        node = pop()
        yield node
        for field in node._fields:
            if field == "ctx":
                continue
            value = getattr(node, field, None)
            if isinstance(value, node_type):
                push(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        push(item)


def dotted_name(node):
    """`a.b.C` for Name/Attribute chains (subscripts and calls stripped), else None."""
    while isinstance(node, (ast.Subscript, ast.Call)):
        node = node.value if isinstance(node, ast.Subscript) else node.func
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def string_value(node):
    """The text of a string literal node, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if type(node).__name__ == "Str":  # Python < 3.8
        return node.s
    return None


def positional_only(args):
    return getattr(args, "posonlyargs", [])


def parameter_names(fn, bound):
    args = fn.args
    positional = [(p.arg, True) for p in positional_only(args)] + [(p.arg, False) for p in args.args]
    if bound:
        positional = positional[1:]
    names = [n for n, only in positional if not only] + [p.arg for p in args.kwonlyargs]
    return {n for n in names if not (n.startswith("__") and not n.endswith("__"))}


def string_list(node):
    """The strings of a literal list/tuple/set of strings, or of a single string (split on
    commas and whitespace, as namedtuple accepts)."""
    if string_value(node) is not None:
        return string_value(node).replace(",", " ").split()
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        out = []
        for elt in node.elts:
            if string_value(elt) is not None:
                out.append(string_value(elt))
            elif isinstance(elt, ast.Tuple) and elt.elts and string_value(elt.elts[0]) is not None:
                out.append(string_value(elt.elts[0]))  # typing.NamedTuple("X", [("a", int)])
        return out
    return None


def namedtuple_fields(call):
    """Field names of `namedtuple("X", "a b")` / `NamedTuple("X", [("a", int)])`, else None."""
    if not isinstance(call, ast.Call):
        return None
    func = dotted_name(call.func)
    if func is None or func.rsplit(".", 1)[-1] not in ("namedtuple", "NamedTuple"):
        return None
    fields = call.args[1] if len(call.args) > 1 else next(
        (k.value for k in call.keywords if k.arg in ("field_names", "fields")), None)
    return string_list(fields) if fields is not None else None


def store_targets(target):
    """Plain names bound by an assignment target (tuples unpacked)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from store_targets(elt)
    elif isinstance(target, ast.Starred):
        yield from store_targets(target.value)


def flat_body(body):
    """Statements of a block, descending into if/try/with/for/while but not into defs."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While)):
            yield from flat_body(stmt.body)
            yield from flat_body(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from flat_body(stmt.body)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            yield from flat_body(stmt.body)
            for handler in stmt.handlers:
                yield from flat_body(handler.body)
            yield from flat_body(stmt.orelse)
            yield from flat_body(stmt.finalbody)


class _Reader:
    def __init__(self, facts):
        self.facts = facts

    def absolute(self, module, level):
        if level == 0:
            return module or ""
        parts = self.facts.name.split(".")
        if not self.facts.is_package:
            parts = parts[:-1]
        if level > 1:
            parts = parts[: len(parts) - (level - 1)]
        base = ".".join(parts)
        if module:
            return base + "." + module if base else module
        return base

    def read_module(self, tree):
        facts = self.facts
        for stmt in flat_body(tree.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                facts.names.add(stmt.name)
                facts.params |= parameter_names(stmt, bound=False)
            elif isinstance(stmt, ast.ClassDef):
                facts.names.add(stmt.name)
                self.read_class(stmt, stmt.name)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        facts.bindings[alias.asname] = ("abs", alias.name)
                        exported = not facts.is_stub or alias.asname == alias.name
                        if exported:
                            facts.names.add(alias.asname)
                    else:
                        top = alias.name.split(".")[0]
                        facts.bindings.setdefault(top, ("abs", top))
                        if not facts.is_stub:
                            facts.names.add(top)
            elif isinstance(stmt, ast.ImportFrom):
                source = self.absolute(stmt.module, stmt.level)
                for alias in stmt.names:
                    if alias.name == "*":
                        facts.stars.append(source)
                        continue
                    bound = alias.asname or alias.name
                    facts.bindings[bound] = ("abs", source + "." + alias.name if source else alias.name)
                    # A stub re-exports `from m import X as X` only; `from . import m` in a
                    # package __init__ binds a submodule, which is an attribute either way.
                    if not facts.is_stub or alias.asname == alias.name or (stmt.level and not stmt.module):
                        facts.names.add(bound)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.read_module_assignment(stmt)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self.read_all_call(stmt.value)
            elif isinstance(stmt, (ast.For, ast.AsyncFor)):
                facts.names.update(store_targets(stmt.target))

    def read_module_assignment(self, stmt):
        facts = self.facts
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        value = stmt.value
        for target in targets:
            for name in store_targets(target):
                facts.names.add(name)
                if name == "__all__" and value is not None:
                    listed = string_list(value)
                    if listed is not None:
                        if isinstance(stmt, ast.AugAssign) and facts.all is not None:
                            facts.all = facts.all + listed
                        elif not isinstance(stmt, ast.AugAssign):
                            facts.all = listed
                        facts.names.update(listed)
                elif isinstance(target, ast.Name) and value is not None:
                    fields = namedtuple_fields(value)
                    if fields is not None:
                        cls = facts.classes.setdefault(name, ClassFacts())
                        cls.names.update(fields)
                        cls.init = (cls.init or set()) | set(fields)
                        cls.params.update(fields)
                        cls.bases.append("tuple")
                    else:
                        alias = dotted_name(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
                        if alias is not None and alias != name:
                            facts.bindings.setdefault(name, ("local", alias))

    def read_all_call(self, call):
        """`__all__.extend([...])` / `__all__.append("x")`."""
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "__all__" \
                and func.attr in ("extend", "append") and call.args:
            listed = string_list(call.args[0])
            if listed is not None:
                self.facts.all = (self.facts.all or []) + listed
                self.facts.names.update(listed)

    def read_class(self, node, qualified):
        cls = self.facts.classes.setdefault(qualified, ClassFacts())
        for base in node.bases:
            fields = namedtuple_fields(base)
            if fields is not None:
                cls.names.update(fields)
                cls.params.update(fields)
                cls.init = (cls.init or set()) | set(fields)
                cls.bases.append("tuple")
                continue
            dotted = dotted_name(base)
            if dotted is not None and dotted not in cls.bases:
                cls.bases.append(dotted)
        decorators = {dotted_name(d) for d in node.decorator_list}
        synthesised = bool(decorators & FIELD_INIT_DECORATORS) or bool(set(cls.bases) & FIELD_INIT_BASES)
        fields = []
        defines_init = False
        for stmt in flat_body(node.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                cls.names.add(stmt.name)
                static = any(dotted_name(d) in ("staticmethod", "builtins.staticmethod") for d in stmt.decorator_list)
                params = parameter_names(stmt, bound=not static)
                cls.params |= params
                if stmt.name in ("__init__", "__new__"):
                    defines_init = True
                    cls.init = (cls.init or set()) | params
                    if stmt.args.vararg or stmt.args.kwarg:
                        cls.forwards = True
                self.read_instance_attributes(stmt, cls, static)
            elif isinstance(stmt, ast.ClassDef):
                cls.names.add(stmt.name)
                self.read_class(stmt, qualified + "." + stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for name in store_targets(target):
                        cls.names.add(name)
                        if name == "__slots__" and stmt.value is not None:
                            cls.names.update(string_list(stmt.value) or [])
                        elif isinstance(stmt, ast.AnnAssign) and not self.is_class_var(stmt.annotation):
                            fields.append(name)
                        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                            call = dotted_name(stmt.value.func)
                            if call is not None and call.rsplit(".", 1)[-1] in FIELD_CALLS:
                                fields.append(name)
        if synthesised and not defines_init:
            # attrs strips a private field's leading underscores from the __init__ keyword.
            names = set(fields) | {f.lstrip("_") for f in fields if f.lstrip("_")}
            cls.init = (cls.init or set()) | names
            cls.params |= names
            cls.forwards = True

    @staticmethod
    def is_class_var(annotation):
        name = dotted_name(annotation)
        return name is not None and name.rsplit(".", 1)[-1] == "ClassVar"

    @staticmethod
    def read_instance_attributes(fn, cls, static):
        """`self.X = ...` anywhere in a method (a store through the bound first parameter), and apart
        the names only read so: an attribute only code outside the class sets (mpmath's `_ctxdata`),
        a hook only subclasses define, or a base's method."""
        if static:
            return
        first = (positional_only(fn.args) + fn.args.args)[:1]
        if not first:
            return
        receiver = first[0].arg
        for node in walk(fn):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver:
                (cls.names if isinstance(node.ctx, ast.Store) else cls.reads).add(node.attr)


LOOKUP_BUILTINS = ("hasattr", "getattr")
# Where the text has no such call, the walk is skipped.
LOOKUP_CALL = re.compile(r"\b(?:has|get)attr\(\s*\w+\s*,\s*[rbuRBU]*['\"]")
LOOKUP_CALL_BYTES = re.compile(LOOKUP_CALL.pattern.encode())


def parameter_lookups(tree):
    """The literal names given to `hasattr`/`getattr` on a parameter of a function they are in,
    other than a method's bound first one (`hasattr(x, "_mpmath_")`; not `getattr(self, "x")`),
    dunders left out.  One walk of the tree."""
    out = set()

    def visit(node, params, in_class):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = child.args
                positional = positional_only(args) + args.args
                if in_class and not any(dotted_name(d) in ("staticmethod", "builtins.staticmethod") for d in child.decorator_list):
                    positional = positional[1:]
                visit(child, params | {p.arg for p in positional + args.kwonlyargs}, False)
                continue
            if params and isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in LOOKUP_BUILTINS \
                    and len(child.args) >= 2 and isinstance(child.args[0], ast.Name) and child.args[0].id in params:
                value = string_value(child.args[1])
                if value and value.isidentifier() and not (value.startswith("__") and value.endswith("__")):
                    out.add(value)
            visit(child, params, isinstance(child, ast.ClassDef))

    visit(tree, frozenset(), False)
    return out


def outward_uses(tree):
    """(uses, attributes, keywords): per top-level module imported (absolutely, anywhere in the module), the
    names reached in it: the parts of the path imported (`from bs4.element import Tag`: element,
    Tag) and the attributes read through what `import bs4` binds (`bs4.Tag`,
    `bs4.element.Comment`; a name two imports bind reaches both); every attribute name the module reads or sets (`el.descendants`,
    `hook._call_history = []`), dunders left out: what it asks of the objects it is handed among
    the rest; and the keywords its calls
    give (`hookspec(warn_on_impl=...)`).  One walk of the tree."""
    uses = {}
    bound = {}
    attributes = []
    used = set()
    keywords = set()
    for node in walk(tree):
        if isinstance(node, ast.Call):
            keywords.update(k.arg for k in node.keywords if k.arg is not None)
        elif isinstance(node, ast.Attribute):
            attributes.append(node)
            if not (node.attr.startswith("__") and node.attr.endswith("__")):
                used.add(node.attr)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                uses.setdefault(parts[0], set()).update(parts[1:])
                bound.setdefault(alias.asname or parts[0], set()).add(parts[0])
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            parts = node.module.split(".")
            names = uses.setdefault(parts[0], set())
            names.update(parts[1:])
            names.update(a.name for a in node.names if a.name != "*")
    if bound:
        for node in attributes:
            parts = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in bound:
                for top in bound[value.id]:
                    uses[top].update(parts)
    return uses, used, keywords


def read_module(name, text, is_package, is_stub):
    """ModuleFacts of one source text; raises SyntaxError/ValueError when `ast` cannot parse it."""
    tree = ast.parse(text, filename=name)
    facts = ModuleFacts(name, is_package, is_stub)
    _Reader(facts).read_module(tree)
    if (LOOKUP_CALL if isinstance(text, str) else LOOKUP_CALL_BYTES).search(text):
        facts.lookups = parameter_lookups(tree)
    facts.foreign, facts.used_attributes, facts.keywords = outward_uses(tree)
    return facts
