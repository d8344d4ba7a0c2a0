/**
 * The one schema every bundle is checked against before any work: a bundle is input, and
 * input is hostile until checked. Beyond types and shapes, the names section must be able to
 * make nothing but names: replacement words are plain lowercase words, names are identifiers,
 * path segments hold no separator and are never `.` or `..`, and every view name reads back,
 * through the token map, as the original it stands for (which makes every map injective). The
 * order section (Level 3) names Python files by relative paths and units by Python names, and
 * each reordered run's positions are a permutation of its units.
 *
 * The field lists are typed against `Bundle` and `NamesSection`: a field added to either does
 * not compile until it is described here.
 */
// bundle.ts imports this module: its values are read only when a bundle is checked.
import { BUNDLE_SCHEMA_VERSION, GRANULARITIES, type Bundle, type NamesSection, type OrderSection } from './bundle';
import { BUNDLE_SCHEMA } from './bundle-document';
import { Naming } from '../names/naming';
import { forEachWord, isIdentifier } from '../names/words';
import { ORDER_RECORD_VERSION, type ContainerRecord, type OrderRecord, type RunRecord } from '../order/reorder';
import {
  arrayOf,
  boolean,
  fail,
  integer,
  isObject,
  isRelativePath,
  isSegment,
  matching,
  MAX_TEXT_LENGTH,
  objectOf,
  optional,
  recordOf,
  required,
  show,
  text,
  validateDocument,
  type Check,
  type Shape,
} from '../common/schema';
import { isPythonFile } from '../common/text-encoding';

/** One whole word of name characters (what `forEachWord` sees as one word). */
function isWholeWord(s: string): boolean {
  let words = 0;
  let whole = false;
  forEachWord(s, (start, end) => {
    words++;
    whole = start === 0 && end === s.length;
  });
  return words === 1 && whole;
}

/** A token key: one lowercase word without underscores, not starting with a digit. */
const isTokenKey = (s: string) => isWholeWord(s) && !s.includes('_') && !/^[0-9]/.test(s) && s === s.toLowerCase();
const isReplacementWord = (s: string) => /^[a-z]{3,64}$/.test(s);
const isName = (s: string) => isIdentifier(s);
const isDottedName = (s: string) => s.split('.').every(isIdentifier);
/** A word the tables keep (it is never written anywhere: only looked up). */
const isKeptWord = (s: string) => s !== '' && !/[\s/\\\0]/.test(s);

const name = matching('a Python name', isName);
const calleeIndex = matching('callee:index', (s) => /^[^:]+:(?:0|[1-9][0-9]{0,3})$/.test(s) && isName(s.split(':')[0]));
/** A parameter by its callable's name and its place or its name (`export_svg:0`, `export_svg:title`). */
const calleeParameter = matching('callee:index or callee:parameter', (s) => /^[^:]+:[^:]+$/.test(s) && isName(s.split(':')[0]) && (/^(?:0|[1-9][0-9]{0,3})$/.test(s.split(':')[1]) || isName(s.split(':')[1])));
const reason = text(200);
/** A container by its name, or a function's result (`options()`), or a place of its tuples (`TABLE#1`). */
const containerName = matching('a Python name, or one followed by () or #N', (s) => isName(s.endsWith('()') ? s.slice(0, -2) : s.replace(/#(?:0|[1-9][0-9]{0,2})$/, '')));
const familyKey = matching('a family piece (prefix:, suffix: or around:)', (s) => /^(?:prefix|suffix|around):[\p{L}\p{N}_{}]+$/u.test(s));

const namesShape = (): Shape<NamesSection> => ({
  granularity: required(matching(`one of ${GRANULARITIES.join(', ')}`, (s) => (GRANULARITIES as readonly string[]).includes(s))),
  tokens: required(recordOf(matching('a token (one lowercase word)', isTokenKey), matching('a replacement word (3 to 64 lowercase letters a-z)', isReplacementWord))),
  overrides: required(recordOf(name, name)),
  keptEverywhere: required(recordOf(matching('a word', isKeptWord), reason)),
  keptMembers: required(recordOf(matching('a word', isKeptWord), reason)),
  modules: required(arrayOf(matching('a dotted module name', isDottedName), { unique: true })),
  ownPackages: required(arrayOf(name, { unique: true })),
  identity: optional(arrayOf(matching('a token (one lowercase word)', isTokenKey), { unique: true })),
  identifiers: required(recordOf(name, name)),
  locals: required(recordOf(name, name)),
  paths: required(recordOf(matching('a path segment', isSegment), matching('a path segment', isSegment))),
  externalGlobals: required(recordOf(matching('a dotted module name', isDottedName), arrayOf(name))),
  plainNames: required(arrayOf(name)),
  callables: required(arrayOf(name)),
  quotableNames: required(arrayOf(name)),
  dataKeywords: required(arrayOf(matching('callee.keyword', (s) => s.split('.').length === 2 && s.split('.').every((p) => p === '' || isName(p))))),
  nameKeywords: required(arrayOf(name)),
  nameArguments: required(arrayOf(calleeIndex)),
  valueArguments: required(arrayOf(calleeIndex)),
  commandArguments: optional(arrayOf(calleeIndex)),
  digestedArguments: optional(arrayOf(calleeParameter)),
  dataFiles: optional(arrayOf(matching('a relative path', isRelativePath, MAX_TEXT_LENGTH), { unique: true })),
  sourceArguments: optional(arrayOf(matching('dotted.callee:index', (s) => /^[^:]+:(?:0|[1-9][0-9]{0,3})$/.test(s) && isDottedName(s.split(':')[0])))),
  frameReaders: optional(arrayOf(name, { unique: true })),
  frameKeys: optional(arrayOf(name, { unique: true })),
  nameContainers: optional(arrayOf(containerName, { unique: true })),
  nameValueContainers: optional(arrayOf(name, { unique: true })),
  distributions: optional(arrayOf(matching('distribution name', (s) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(s)), { unique: true })),
  dataNames: required(arrayOf(name)),
  families: required(arrayOf(familyKey, { unique: true })),
  keptFamilies: required(arrayOf(familyKey, { unique: true })),
  externalValues: required(arrayOf(name)),
  readsNames: required(boolean),
  excluded: required(recordOf(matching('a word', isKeptWord), reason)),
  keptSegments: required(arrayOf(matching('a path segment', isSegment))),
  givenBack: required(recordOf(name, text(MAX_TEXT_LENGTH))),
  environment: required(
    objectOf<NamesSection['environment']>({
      python: required(objectOf<NamesSection['environment']['python']>({ executable: required(text(MAX_TEXT_LENGTH)), version: required(text(200)) })),
      distributions: required(
        arrayOf(
          objectOf<NamesSection['environment']['distributions'][number]>({
            name: required(text(200)),
            version: required(text(200)),
            tops: required(arrayOf(name, { unique: true })),
            digest: required(matching('a sha256 digest', (s) => /^sha256:[0-9a-f]{64}$/.test(s))),
          }),
        ),
      ),
      missing: required(arrayOf(name, { unique: true })),
      fixtures: required(arrayOf(name, { unique: true })),
    }),
  ),
  layout: required(
    objectOf<NamesSection['layout']>({
      packageFolders: required(arrayOf(matching('a relative path', isRelativePath, MAX_TEXT_LENGTH))),
      prefix: required(matching('empty or a Python name', (s) => s === '' || isName(s))),
    }),
  ),
});

/** A container of an order record: "" (the module) or a dotted path of classes, `#k` for the k-th of that path. */
const isContainerPath = (s: string) => {
  if (s === '') return true;
  const [dotted, k, ...more] = s.split('#');
  return more.length === 0 && isDottedName(dotted) && (k === undefined || /^[1-9][0-9]{0,5}$/.test(k));
};

const orderShape = (): Shape<OrderSection> => ({
  files: required(
    recordOf(
      matching('a relative path of a Python file', (s) => isRelativePath(s) && isPythonFile(s), MAX_TEXT_LENGTH),
      objectOf<OrderRecord>({
        version: required(integer(ORDER_RECORD_VERSION, ORDER_RECORD_VERSION)),
        containers: required(
          arrayOf(
            objectOf<ContainerRecord>({
              path: required(matching('a container path (empty, or dotted class names)', isContainerPath, MAX_TEXT_LENGTH)),
              runs: required(
                arrayOf(
                  objectOf<RunRecord>({
                    names: required(arrayOf(name)),
                    original: optional(arrayOf(integer(0, 100_000), { unique: true })),
                  }),
                ),
              ),
            }),
          ),
        ),
      }),
    ),
  ),
});

const count = integer(0, Number.MAX_SAFE_INTEGER);

const STATISTICS_COUNTS = ['files', 'textFiles', 'binaryFiles', 'pythonFiles', 'skippedLinks'] as const;

const bundleShape = (): Shape<Bundle> => ({
  schema: required(matching(`"${BUNDLE_SCHEMA}"`, (s) => s === BUNDLE_SCHEMA)),
  schemaVersion: required(integer(BUNDLE_SCHEMA_VERSION, BUNDLE_SCHEMA_VERSION)),
  generator: required(text(200)),
  seed: required(integer(0, 999_999_999_999_999)),
  levels: required(arrayOf(integer(1, 4), { unique: true })),
  repository: required(
    objectOf<Bundle['repository']>({
      name: required(matching('a folder name', isSegment)),
      isPackage: required(boolean),
      files: required(count),
      contentHash: required(matching('"sha256:" and 64 hexadecimal digits', (s) => /^sha256:[0-9a-f]{64}$/.test(s), 80)),
      pathDigests: required(arrayOf(matching('16 hexadecimal digits', (s) => /^[0-9a-f]{16}$/.test(s), 16))),
    }),
  ),
  lexiconVersion: required(text(200)),
  externalNamesVersion: required(text(200)),
  names: optional(objectOf(namesShape())),
  order: optional(orderSection),
  // Only the counts are read; the rest is a report.
  statistics: required((value, where) => {
    if (!isObject(value)) fail(where, `expected an object, found ${show(value)}`);
    for (const key of STATISTICS_COUNTS) {
      if (!Object.hasOwn(value, key)) fail(`${where}.${key}`, 'missing');
      count(value[key], `${where}.${key}`);
    }
  }),
});

/** The names section's meaning: every view name reads back as its original; maps are injective. */
function checkNames(names: NamesSection): void {
  const replacements = new Map<string, string>();
  for (const [token, word] of Object.entries(names.tokens)) {
    const other = replacements.get(word);
    if (other !== undefined) fail(`names.tokens[${show(token)}]`, `${show(word)} replaces ${show(other)} too`);
    if (Object.hasOwn(names.tokens, word)) fail(`names.tokens[${show(token)}]`, `the replacement word ${show(word)} is itself a token`);
    replacements.set(word, token);
  }
  const naming = new Naming(names.tokens, names.overrides);
  for (const table of ['overrides', 'identifiers', 'locals', 'paths'] as const) {
    const originals = new Map<string, string>();
    for (const [original, view] of Object.entries(names[table])) {
      const where = `names.${table}[${show(original)}]`;
      const other = originals.get(view);
      if (other !== undefined) fail(where, `${show(view)} stands for ${show(other)} too`);
      originals.set(view, original);
      const back = naming.toReal(view);
      if (back !== original) fail(where, `${show(view)} reads back as ${show(back)} through names.tokens`);
    }
  }
}

/** The order section's meaning: each reordered run's positions are a permutation of its units, in another order. */
function checkOrder(order: OrderSection): void {
  for (const [file, record] of Object.entries(order.files)) {
    if (record.containers.length === 0) fail(`order.files[${show(file)}].containers`, 'empty (a file that keeps its order has no record)');
    const paths = new Set<string>();
    record.containers.forEach((container, c) => {
      const where = `order.files[${show(file)}].containers[${c}]`;
      if (paths.has(container.path)) fail(`${where}.path`, `${show(container.path)} appears twice`);
      paths.add(container.path);
      container.runs.forEach((run, r) => {
        const at = `${where}.runs[${r}]`;
        if (run.names.length === 0) fail(`${at}.names`, 'empty');
        if (!run.original) return;
        if (run.original.length !== run.names.length) fail(`${at}.original`, `${run.original.length} positions for ${run.names.length} names`);
        if (run.original.some((position) => position >= run.names.length)) fail(`${at}.original`, `not a permutation of 0 to ${run.names.length - 1}`);
        if (run.original.every((position, k) => position === k)) fail(`${at}.original`, 'the original order (a run that keeps its order has none)');
      });
    });
  }
}

/** An order section (Level 3 records), in a bundle or a working copy's level record, at `order`. */
export const orderSection: Check = (value, where) => {
  objectOf(orderShape())(value, where);
  checkOrder(value as OrderSection);
};

/** The bundle, checked; a damaged one throws "damaged bundle: SOURCE: WHAT". */
export function validateBundle(value: unknown, source: string): Bundle {
  return validateDocument<Bundle>(value, 'bundle', source, () => {
    objectOf(bundleShape())(value, '');
    const bundle = value as Bundle;
    const levels = bundle.levels;
    if (levels.some((level, i) => i > 0 && level <= levels[i - 1])) fail('levels', 'expected ascending levels');
    if (levels.includes(2) !== (bundle.names !== undefined)) fail('names', levels.includes(2) ? 'missing (levels include 2)' : 'present although levels do not include 2');
    if (levels.includes(3) !== (bundle.order !== undefined)) fail('order', levels.includes(3) ? 'missing (levels include 3)' : 'present although levels do not include 3');
    if (levels.includes(4)) fail('levels', 'level 4 is not kept in bundles (only a disguised checkout has it)');
    if (bundle.names) checkNames(bundle.names);
  });
}
