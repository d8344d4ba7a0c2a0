/**
 * Which units of a run must keep their relative order.
 *
 * Two units i < j of a run keep their order when:
 * - they define the same name (redefinitions: the last one wins; this also keeps `@property` /
 *   `@x.setter` / `@x.deleter` chains and `@overload` groups with their implementation in order);
 * - one needs, when it is defined, a name the other defines (see DependencyIndex.needs);
 * - they share a decorator that may register them (see REGISTRATION below);
 * - both are tests (see TESTS below);
 * - both are classes nested in a class body: an Enum makes nested classes members (Python 3.11
 *   and 3.12), in the order they appear.
 */
import { outermost, type Container, type Layout, type Span, type Unit } from './layout';
import { readNames, type ReadNames } from './names';
import { IDENTIFIER_SOURCE } from '../python/identifiers';

/**
 * Decorator roots that only wrap or mark what they decorate, by their documented behaviour:
 * nothing outside the decorated object records the order in which they ran. pytest collects
 * fixtures by name (`dir()` is sorted), marks attach to the function.
 *
 * REGISTRATION: any other decorator may register the unit somewhere at import time, and order
 * matters to some registries. The corpus has such a registry: sortedcontainers'
 * tests/test_stress_sorted{dict,list,set}.py define `actor(func)`, which appends `func` to a
 * module-level `actions` list, and the stress test then runs `random.choice(actions)` under a fixed
 * `random.seed(0)`: reordering the `@actor` functions changes which actions the seeded test runs.
 * Routes (`@app.route`, first match wins), signal receivers (called in connection order) and
 * `atexit.register` (reverse order) behave alike. So units sharing a decorator root that is not
 * listed here keep their relative order (their order among other units stays free).
 */
const WRAPPING_DECORATOR_ROOTS = new Set([
  'property', 'classmethod', 'staticmethod',
  'abc', 'abstractmethod', 'abstractproperty', 'abstractclassmethod', 'abstractstaticmethod',
  'functools', 'wraps', 'lru_cache', 'cache', 'cached_property', 'total_ordering', 'singledispatch', 'singledispatchmethod',
  'contextlib', 'contextmanager', 'asynccontextmanager',
  'dataclasses', 'dataclass',
  'typing', 'typing_extensions', 'overload', 'final', 'override', 'runtime_checkable', 'no_type_check',
  'pytest', 'unittest', 'skip', 'skipIf', 'skipUnless', 'expectedFailure', 'mock', 'patch',
]);

/**
 * TESTS: pytest collects test functions and classes in definition order and runs them in that
 * order, and tests may depend on it through state they share. The corpus has such tests:
 * pyparsing's tests/test_unit.py numbers its classes (Test03_EnablePackratParsing turns packrat
 * parsing on, Test04_WithPackrat then checks it is on, and so on to Test09); moved apart, three
 * tests fail. So the units pytest may collect keep their relative order: functions and methods
 * named `test*`, and classes named or based on something named `*Test*` (pytest's `Test*`
 * classes and unittest `TestCase` subclasses, which pytest collects whatever their name). Their
 * order among the other units (helpers, fixtures) stays free.
 */
function isTest(unit: Unit): boolean {
  return unit.kind === 'function' ? unit.name.startsWith('test') : /Test/.test(unit.name) || /Test/.test(unit.bases);
}

/** Special methods that only pickling, copying or garbage collection call: never while a definition runs. */
const NEVER_AT_DEFINITION = new Set([
  '__reduce__', '__reduce_ex__', '__getstate__', '__setstate__', '__getnewargs__', '__getnewargs_ex__',
  '__copy__', '__deepcopy__', '__del__',
]);

const ROOT = new RegExp(`^[(\\s]*(${IDENTIFIER_SOURCE})`, 'u');

/** The name a decorator expression starts with (`app` for `app.route("/")`), or its whole text. */
export function decoratorRoot(decorator: string): string {
  return ROOT.exec(decorator)?.[1] ?? decorator.trim();
}

/** The names a file's units read, and what each unit needs when it is defined. */
export class DependencyIndex {
  private readonly atDefinition = new Map<Unit, ReadNames>();
  private readonly everywhere = new Map<Unit, ReadNames>();
  private readonly bodies = new Map<number, Container>();
  private readonly definers = new Map<Container, Map<string, Unit[]>>();

  /** What a definition does not run: function bodies, and annotations when they are not evaluated. */
  private readonly notRun: Span[];

  constructor(private readonly layout: Layout, private readonly text: string) {
    this.notRun = layout.futureAnnotations ? outermost([...layout.deferred, ...layout.annotations]) : layout.deferred;
    for (const container of layout.containers) {
      if (container.classStart !== undefined) this.bodies.set(container.classStart, container);
    }
  }

  /**
   * Precedence pairs [i, j] (i < j, indices into `run`) that must keep their order, for a run of
   * `container`.
   */
  precedence(run: readonly Unit[], container: Container): Array<[number, number]> {
    const needs = run.map((unit) => this.needs(unit, container));
    const tests = run.map(isTest);
    const registries = run.map((unit) => new Set(unit.decorators.map(decoratorRoot).filter((root) => root !== unit.name && !WRAPPING_DECORATOR_ROOTS.has(root))));
    const pairs: Array<[number, number]> = [];
    for (let j = 1; j < run.length; j++) {
      for (let i = 0; i < j; i++) {
        const a = run[i];
        const b = run[j];
        if (
          a.name === b.name ||
          needs[j].has(a.name) ||
          needs[i].has(b.name) ||
          (container.kind === 'class' && a.kind === 'class' && b.kind === 'class') ||
          (tests[i] && tests[j]) ||
          shares(registries[i], registries[j])
        ) {
          pairs.push([i, j]);
        }
      }
    }
    return pairs;
  }

  /**
   * The names of `container`'s units that `unit` may read while it is being defined. A definition
   * runs its decorators, default values, annotations (unless `from __future__ import annotations`
   * is in effect; a `.register` decorator reads them anyway, as `functools.singledispatch` does),
   * class bases and keywords, and the statements of class bodies; function bodies wait until
   * called (lambda bodies are counted as run: the cheaper, safer side). Through what it reads,
   * it may run more code:
   * - a function it reads may be called: its whole body counts;
   * - a class it reads may be subclassed, instantiated or called: its own definition-time names
   *   count (its bases and metaclass), and so do the bodies of its special methods (all but those
   *   of pickling, copying and finalization) and of the methods named by an attribute read on the
   *   way (`x.create()`), transitively.
   */
  needs(unit: Unit, container: Container): Set<string> {
    const defined = this.definersOf(container);
    const need = new Set<string>();
    const attributes = new Set<string>();
    const queue: string[] = [];
    const reach = (names: Iterable<string>) => {
      for (const name of names) {
        if (!need.has(name) && defined.has(name)) {
          need.add(name);
          queue.push(name);
        }
      }
    };
    const reachAttributes = (names: Iterable<string>) => { for (const name of names) attributes.add(name); };
    const classes: Unit[] = [];
    const members = new Set<Unit>();
    const own = this.readAtDefinition(unit);
    reach(own.names);
    reachAttributes(own.attributes);
    for (;;) {
      while (queue.length > 0) {
        for (const definer of defined.get(queue.pop()!)!) {
          // While a unit is being defined, its name still means an earlier definition.
          if (definer === unit) continue;
          const names = definer.kind === 'function' ? this.readEverywhere(definer) : this.readAtDefinition(definer);
          reach(names.names);
          reachAttributes(names.attributes);
          if (definer.kind === 'class') classes.push(definer);
        }
      }
      let more = false;
      for (const cls of classes) {
        for (const member of this.membersOf(cls)) {
          if (members.has(member)) continue;
          const special = member.name.startsWith('__') && member.name.endsWith('__') && !NEVER_AT_DEFINITION.has(member.name);
          if (!special && !attributes.has(member.name)) continue;
          members.add(member);
          const names = this.readEverywhere(member);
          reach(names.names);
          reachAttributes(names.attributes);
          more = true;
        }
      }
      if (!more && queue.length === 0) return need;
    }
  }

  private definersOf(container: Container): Map<string, Unit[]> {
    let defined = this.definers.get(container);
    if (!defined) {
      defined = new Map();
      for (const statement of container.statements) {
        const unit = statement.unit;
        if (!unit) continue;
        const list = defined.get(unit.name);
        if (list) list.push(unit);
        else defined.set(unit.name, [unit]);
      }
      this.definers.set(container, defined);
    }
    return defined;
  }

  private membersOf(cls: Unit): Unit[] {
    const body = this.bodies.get(cls.definitionStart);
    return body ? body.statements.flatMap((s) => (s.unit ? [s.unit] : [])) : [];
  }

  /** Names the unit reads when it is defined. */
  private readAtDefinition(unit: Unit): ReadNames {
    let names = this.atDefinition.get(unit);
    if (!names) {
      // A `.register` decorator reads annotations, as functools.singledispatch does.
      const readsAnnotations = unit.decorators.some((d) => /\.register\b/.test(d));
      names = readNames(this.text, unit.codeStart, unit.codeEnd, readsAnnotations ? this.layout.deferred : this.notRun);
      this.atDefinition.set(unit, names);
    }
    return names;
  }

  /** Names the unit reads anywhere, bodies included. */
  private readEverywhere(unit: Unit): ReadNames {
    let names = this.everywhere.get(unit);
    if (!names) {
      names = readNames(this.text, unit.codeStart, unit.codeEnd, []);
      this.everywhere.set(unit, names);
    }
    return names;
  }
}

function shares(a: Set<string>, b: Set<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}
