/**
 * Uniform random linear extensions of a partial order.
 *
 * The order is given on elements 0..n-1 by precedence pairs [i, j] with i < j (i must stay before
 * j), so 0..n-1 is always one valid order. A sample is drawn uniformly among all valid orders:
 *
 * 1. Decomposition (exact). If the comparability graph is disconnected, the poset is a disjoint
 *    union: each part is sampled on its own and the parts are interleaved by a uniformly random
 *    arrangement of their labels (e(P) = multinomial x product of the parts' counts, so this is
 *    uniform). If the incomparability graph is disconnected, the poset is an ordinal sum: the
 *    parts are sampled on their own and concatenated.
 * 2. What remains is a part that neither splits: its linear extensions are counted over its
 *    downsets (prefixes) with a dynamic programme, and one uniformly random integer below that
 *    count is unranked into an order. This is done for every part of 20 elements or fewer (2^20
 *    downsets at most), and for a part of up to 52 elements whose downsets number at most
 *    `maxDownsets` (2^16 by default). Counts are exact: doubles while the total is at most 2^53,
 *    BigInts above.
 * 3. A larger part with more downsets than that (3 runs of Django 3.2: wide class hierarchies
 *    with mixins, e.g. the model fields; none in networkx or the corpus) is sampled by the
 *    Bubley–Dyer Markov chain (Discrete Mathematics 201 (1999) 81–88), started from the original
 *    order: pick an adjacent position p (1 <= p < m) with probability p(m-p)/K, K = (m^3 - m)/6,
 *    and swap the two elements there with probability 1/2 when the order allows it. Their path
 *    coupling contracts the distance between two copies by a factor 1 - 1/K per step, and the
 *    distance is below m^2/2, so after K * ln(m^2 / (2 * eps)) steps the chain is within eps of
 *    uniform in total variation. We run 2 * K * ln(m^2 / (4 * eps)) steps (more than that for every
 *    m) with eps = 1e-6: such a sample is within 1e-6 of uniform, and the run is counted as
 *    approximate.
 *
 * Every random integer comes from 32-bit chunks of `random()` by rejection, so draws are exactly
 * uniform as long as `random()` yields at least 32 uniform bits (seedrandom yields 52).
 */

export type Precedence = ReadonlyArray<readonly [before: number, after: number]>;

export interface SampleOptions {
  /** Parts of at most this many elements are always sampled exactly (default 20). */
  exactUpTo?: number;
  /** The most downsets the exact counter may visit in one larger indecomposable part (default 2^16). */
  maxDownsets?: number;
}

export interface Sample {
  /** The sampled order: order[k] is the element placed k-th. */
  order: number[];
  /** Whether any part had to use the Markov chain (not exactly uniform). */
  approximate: boolean;
}

const DEFAULT_MAX_DOWNSETS = 1 << 16;
const EXACT_UP_TO = 20;
/** Downset masks are whole numbers below 2^52, in two halves of 26 bits. */
const MAX_COUNTED = 52;
const HALF = 26;
const HALF_RANGE = 2 ** HALF;
const TWO_32 = 4294967296;
const MIXING_EPSILON = 1e-6;

/** A uniform integer in [0, k) for 1 <= k <= 2^53, by rejection from 32-bit chunks. */
export function uniformInt(random: () => number, k: number): number {
  if (!(k >= 1 && Number.isSafeInteger(k))) throw new Error(`uniformInt: bad bound ${k}`);
  if (k === 1) return 0;
  if (k > TWO_32) return Number(uniformBigInt(random, BigInt(k)));
  const limit = TWO_32 - (TWO_32 % k);
  for (;;) {
    const x = Math.floor(random() * TWO_32);
    if (x < limit) return x % k;
  }
}

/** A uniform BigInt in [0, k) for k >= 1. */
export function uniformBigInt(random: () => number, k: bigint): bigint {
  if (k < 1n) throw new Error('uniformBigInt: bound below 1');
  if (k <= BigInt(TWO_32)) return BigInt(uniformInt(random, Number(k)));
  // Whole 32-bit chunks, shifted down to the bound's bit length, until one falls below it.
  const bits = (k - 1n).toString(2).length;
  const chunks = Math.ceil(bits / 32);
  const excess = BigInt(chunks * 32 - bits);
  for (;;) {
    let x = 0n;
    for (let c = 0; c < chunks; c++) x = (x << 32n) | BigInt(Math.floor(random() * TWO_32));
    x >>= excess;
    if (x < k) return x;
  }
}

/** Uniformly random permutation in place (Fisher–Yates). */
export function shuffleInPlace<T>(values: T[], random: () => number): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = uniformInt(random, i + 1);
    const t = values[i];
    values[i] = values[j];
    values[j] = t;
  }
  return values;
}

/** The strict order as bitsets: `later[i]` has bit j when i must come before j. */
class Closure {
  readonly later: Uint32Array[];

  constructor(readonly size: number, precedence: Precedence) {
    const words = Math.max(1, Math.ceil(size / 32));
    const direct: number[][] = Array.from({ length: size }, () => []);
    for (const [a, b] of precedence) {
      if (!(Number.isInteger(a) && Number.isInteger(b) && 0 <= a && a < b && b < size)) {
        throw new Error(`precedence [${a}, ${b}] must satisfy 0 <= before < after < ${size}`);
      }
      direct[a].push(b);
    }
    this.later = Array.from({ length: size }, () => new Uint32Array(words));
    for (let i = size - 1; i >= 0; i--) {
      const row = this.later[i];
      for (const j of direct[i]) {
        row[j >>> 5] |= 1 << (j & 31);
        const other = this.later[j];
        for (let w = 0; w < words; w++) row[w] |= other[w];
      }
    }
  }

  before(i: number, j: number): boolean {
    return (this.later[i][j >>> 5] & (1 << (j & 31))) !== 0;
  }

  comparable(i: number, j: number): boolean {
    return i < j ? this.before(i, j) : this.before(j, i);
  }
}

/** Whether 0..n-1 is the only valid order. */
export function isTotalOrder(size: number, precedence: Precedence): boolean {
  const closure = new Closure(size, precedence);
  for (let i = 0; i + 1 < size; i++) if (!closure.before(i, i + 1)) return false;
  return true;
}

/** The number of valid orders (exact; for tests and statistics on small orders). */
export function countLinearExtensions(size: number, precedence: Precedence): bigint {
  const closure = new Closure(size, precedence);
  return countPart(closure, Array.from({ length: size }, (_, i) => i));
}

function countPart(closure: Closure, elements: number[]): bigint {
  if (elements.length <= 1) return 1n;
  const parts = components(elements, (a, b) => closure.comparable(a, b));
  if (parts.length > 1) {
    let total = factorial(elements.length);
    for (const part of parts) total = (total / factorial(part.length)) * countPart(closure, part);
    return total;
  }
  const layers = components(elements, (a, b) => !closure.comparable(a, b));
  if (layers.length > 1) return layers.reduce((n, layer) => n * countPart(closure, layer), 1n);
  const counter = new DownsetCounter(closure, elements, Number.POSITIVE_INFINITY);
  return counter.totalBig();
}

function factorial(n: number): bigint {
  let f = 1n;
  for (let i = 2; i <= n; i++) f *= BigInt(i);
  return f;
}

/** A uniformly random valid order of 0..size-1. */
export function sampleLinearExtension(size: number, precedence: Precedence, random: () => number, options: SampleOptions = {}): Sample {
  const closure = new Closure(size, precedence);
  const state = { approximate: false };
  const limits = { exactUpTo: options.exactUpTo ?? EXACT_UP_TO, maxDownsets: options.maxDownsets ?? DEFAULT_MAX_DOWNSETS };
  const order = samplePart(closure, Array.from({ length: size }, (_, i) => i), random, limits, state);
  return { order, approximate: state.approximate };
}

interface Limits {
  exactUpTo: number;
  maxDownsets: number;
}

function samplePart(closure: Closure, elements: number[], random: () => number, limits: Limits, state: { approximate: boolean }): number[] {
  if (elements.length <= 1) return elements;
  const parts = components(elements, (a, b) => closure.comparable(a, b));
  if (parts.length > 1) {
    const sampled = parts.map((part) => samplePart(closure, part, random, limits, state));
    const labels: number[] = [];
    sampled.forEach((part, label) => { for (let k = 0; k < part.length; k++) labels.push(label); });
    shuffleInPlace(labels, random);
    const next = new Array<number>(sampled.length).fill(0);
    return labels.map((label) => sampled[label][next[label]++]);
  }
  const layers = components(elements, (a, b) => !closure.comparable(a, b));
  if (layers.length > 1) {
    // Layers of an ordinal sum: every element of one lies below every element of the next.
    layers.sort((x, y) => x[0] - y[0]);
    return layers.flatMap((layer) => samplePart(closure, layer, random, limits, state));
  }
  let counter: DownsetCounter;
  try {
    const budget = elements.length <= limits.exactUpTo ? Number.POSITIVE_INFINITY : limits.maxDownsets;
    counter = new DownsetCounter(closure, elements, budget);
  } catch (error) {
    if (!(error instanceof TooManyDownsets)) throw error;
    state.approximate = true;
    return markovChainSample(closure, elements, random);
  }
  return counter.unrank(counter.randomRank(random));
}

/** Connected components of `elements` under `linked`, each sorted, in order of their first element. */
function components(elements: number[], linked: (a: number, b: number) => boolean): number[][] {
  const n = elements.length;
  const seen = new Uint8Array(n);
  const out: number[][] = [];
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    seen[s] = 1;
    const part = [s];
    for (let q = 0; q < part.length; q++) {
      const a = elements[part[q]];
      for (let t = 0; t < n; t++) {
        if (!seen[t] && linked(a, elements[t])) {
          seen[t] = 1;
          part.push(t);
        }
      }
    }
    part.sort((x, y) => x - y);
    out.push(part.map((k) => elements[k]));
  }
  return out;
}

class TooManyDownsets extends Error {}

/** The size of the largest antichain (Dilworth: elements minus a maximum matching of the order). */
function width(closure: Closure, elements: number[]): number {
  const m = elements.length;
  const matchedTo = new Array<number>(m).fill(-1);
  const augment = (a: number, seen: Uint8Array): boolean => {
    for (let b = 0; b < m; b++) {
      if (seen[b] || !(elements[a] < elements[b] && closure.before(elements[a], elements[b]))) continue;
      seen[b] = 1;
      if (matchedTo[b] < 0 || augment(matchedTo[b], seen)) {
        matchedTo[b] = a;
        return true;
      }
    }
    return false;
  };
  let matching = 0;
  for (let a = 0; a < m; a++) if (augment(a, new Uint8Array(m))) matching++;
  return m - matching;
}

/**
 * Counts completions of every reachable downset of one indecomposable part of at most 52
 * elements: `ways(S)` is the number of orders of the elements outside S that extend the prefix S.
 * A mask is a whole number below 2^52, handled as two integers of 26 bits.
 */
class DownsetCounter {
  private readonly m: number;
  private readonly predLow: Int32Array;
  private readonly predHigh: Int32Array;
  private readonly full: number;
  /** Up to 20 elements: ways(mask) in doubles for every mask (0 = not computed yet). */
  private readonly table: Float64Array | undefined;
  private bigMemo: Map<number, bigint> | undefined;
  private states = 0;
  private readonly total: number;

  constructor(closure: Closure, private readonly elements: number[], private readonly maxDownsets: number) {
    this.m = elements.length;
    // An antichain of w elements alone makes 2^w downsets: past the budget, give up early.
    if (this.m > MAX_COUNTED || (maxDownsets < 2 ** this.m && 2 ** width(closure, elements) > maxDownsets)) throw new TooManyDownsets();
    this.predLow = new Int32Array(this.m);
    this.predHigh = new Int32Array(this.m);
    elements.forEach((b, kb) => {
      elements.forEach((a, ka) => {
        if (!(a < b && closure.before(a, b))) return;
        if (ka < HALF) this.predLow[kb] |= 1 << ka;
        else this.predHigh[kb] |= 1 << (ka - HALF);
      });
    });
    this.full = 2 ** this.m - 1;
    // Up to 20 elements, counts in doubles over a table of every mask (BigInts only if the total
    // passes 2^53); past 20, counts pass 2^53 as a rule (21! > 2^53): BigInts straight away.
    this.table = this.m <= 20 ? new Float64Array(2 ** this.m) : undefined;
    this.total = this.table ? this.ways(0) : Number.POSITIVE_INFINITY;
    if (!this.table) this.waysBig(0);
  }

  /** The elements that may come next after the downset `mask`. */
  private available(mask: number): number[] {
    const low = mask % HALF_RANGE;
    const high = (mask - low) / HALF_RANGE;
    const out: number[] = [];
    for (let k = 0; k < this.m; k++) {
      const placed = k < HALF ? (low >> k) & 1 : (high >> (k - HALF)) & 1;
      if (placed === 0 && (this.predLow[k] & ~low) === 0 && (this.predHigh[k] & ~high) === 0) out.push(k);
    }
    return out;
  }

  /** ways(mask) in doubles, over the table (masks below 2^20: one word, no array per state). */
  private ways(mask: number): number {
    if (mask === this.full) return 1;
    const table = this.table!;
    if (table[mask]) return table[mask];
    if (++this.states > this.maxDownsets) throw new TooManyDownsets();
    let sum = 0;
    for (let k = 0; k < this.m; k++) {
      if (((mask >> k) & 1) === 0 && (this.predLow[k] & ~mask) === 0) sum += this.ways(mask | (1 << k));
    }
    table[mask] = sum;
    return sum;
  }

  private waysBig(mask: number): bigint {
    if (mask === this.full) return 1n;
    this.bigMemo ??= new Map();
    const cached = this.bigMemo.get(mask);
    if (cached !== undefined) return cached;
    if (!this.table && ++this.states > this.maxDownsets) throw new TooManyDownsets();
    let sum = 0n;
    for (const k of this.available(mask)) sum += this.waysBig(mask + 2 ** k);
    this.bigMemo.set(mask, sum);
    return sum;
  }

  private exact(): boolean {
    return this.total <= Number.MAX_SAFE_INTEGER;
  }

  totalBig(): bigint {
    return this.exact() ? BigInt(this.total) : this.waysBig(0);
  }

  randomRank(random: () => number): bigint {
    return uniformBigInt(random, this.totalBig());
  }

  unrank(rank: bigint): number[] {
    const order: number[] = [];
    let mask = 0;
    const exact = this.exact();
    let r = exact ? Number(rank) : 0;
    let rBig = rank;
    while (mask !== this.full) {
      const choices = this.available(mask);
      let chosen = choices[choices.length - 1];
      for (const k of choices) {
        const next = mask + 2 ** k;
        if (exact) {
          const w = this.ways(next);
          if (r < w) { chosen = k; break; }
          r -= w;
        } else {
          const w = this.waysBig(next);
          if (rBig < w) { chosen = k; break; }
          rBig -= w;
        }
      }
      order.push(this.elements[chosen]);
      mask += 2 ** chosen;
    }
    return order;
  }
}

/** The Bubley–Dyer chain from the given (valid) order; see the file comment for its bound. */
function markovChainSample(closure: Closure, elements: number[], random: () => number): number[] {
  const m = elements.length;
  const order = [...elements];
  const k = (m * m * m - m) / 6;
  const steps = 2 * Math.ceil(k * Math.log((m * m) / (4 * MIXING_EPSILON)));
  // Position p (swapping order[p-1] and order[p], 1 <= p <= m-1) has weight p(m-p).
  const cumulative: number[] = [];
  let acc = 0;
  for (let p = 1; p < m; p++) cumulative.push((acc += p * (m - p)));
  for (let step = 0; step < steps; step++) {
    // One draw gives the position (x >> 1) and the coin (x & 1).
    const x = uniformInt(random, 2 * acc);
    if ((x & 1) === 0) continue;
    const y = x >>> 1;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (y < cumulative[mid]) hi = mid;
      else lo = mid + 1;
    }
    const a = order[lo];
    const b = order[lo + 1];
    if (!closure.comparable(a, b)) {
      order[lo] = b;
      order[lo + 1] = a;
    }
  }
  return order;
}
