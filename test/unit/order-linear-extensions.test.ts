import assert from 'node:assert/strict';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import {
  countLinearExtensions,
  isTotalOrder,
  sampleLinearExtension,
  uniformBigInt,
  uniformInt,
  type Precedence,
} from '../../src/core/order/linear-extensions';

/** Every valid order of 0..n-1, by brute force over permutations. */
function allExtensions(n: number, precedence: Precedence): string[] {
  const out: string[] = [];
  const used = new Array<boolean>(n).fill(false);
  const order: number[] = [];
  const place = () => {
    if (order.length === n) {
      out.push(order.join(','));
      return;
    }
    for (let x = 0; x < n; x++) {
      if (used[x]) continue;
      // x may come next only if everything that must precede it is placed.
      if (precedence.some(([a, b]) => b === x && !used[a])) continue;
      used[x] = true;
      order.push(x);
      place();
      order.pop();
      used[x] = false;
    }
  };
  place();
  return out;
}

/** Upper tail of the chi-square distribution: the regularized gamma Q(df/2, x/2). */
function chiSquarePValue(x: number, df: number): number {
  const a = df / 2;
  const z = x / 2;
  const lnGammaA = lnGamma(a);
  if (z < a + 1) {
    // Series for P, then Q = 1 - P.
    let sum = 1 / a;
    let term = sum;
    for (let k = 1; k < 10000; k++) {
      term *= z / (a + k);
      sum += term;
      if (term < sum * 1e-15) break;
    }
    return 1 - sum * Math.exp(-z + a * Math.log(z) - lnGammaA);
  }
  // Continued fraction for Q (Lentz).
  let b = z + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(-z + a * Math.log(z) - lnGammaA) * h;
}

function lnGamma(x: number): number {
  const g = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const t = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let s = 1.000000000190015;
  for (const c of g) s += c / ++y;
  return -t + Math.log((2.5066282746310005 * s) / x);
}

/** Chi-square goodness of fit of `draws` samples from `sampler` against the uniform law on all valid orders. */
function uniformityPValue(n: number, precedence: Precedence, draws: number, sampler: () => number[]): number {
  const orders = allExtensions(n, precedence);
  const counts = new Map(orders.map((o) => [o, 0]));
  for (let i = 0; i < draws; i++) {
    const key = sampler().join(',');
    assert.ok(counts.has(key), `sampled an invalid order ${key}`);
    counts.set(key, counts.get(key)! + 1);
  }
  const expected = draws / orders.length;
  let stat = 0;
  for (const c of counts.values()) stat += (c - expected) ** 2 / expected;
  return chiSquarePValue(stat, orders.length - 1);
}

// Small orders covering every path of the sampler: a prime part (counted over its downsets), a
// disjoint union (interleaved), an ordinal sum (concatenated), and a mix of all three.
const N_SHAPE: Precedence = [[0, 2], [1, 2], [1, 3]];
const POSETS: Array<{ name: string; n: number; precedence: Precedence; count: number }> = [
  { name: 'N-shaped (prime)', n: 4, precedence: N_SHAPE, count: 5 },
  { name: 'antichain of 4', n: 4, precedence: [], count: 24 },
  { name: 'chain of 2 beside a chain of 3', n: 5, precedence: [[0, 3], [1, 2], [2, 4]], count: 10 },
  { name: 'two incomparable pairs in series', n: 4, precedence: [[0, 2], [0, 3], [1, 2], [1, 3]], count: 4 },
  {
    name: 'N-shape, a chain of 2 and a loose element, with a tail after all',
    n: 8,
    precedence: [[0, 2], [1, 2], [1, 3], [4, 6], ...[0, 1, 2, 3, 4, 5, 6].map((i) => [i, 7] as [number, number])],
    count: 105 * 5,
  },
];

test('valid orders are counted exactly (brute force agrees)', () => {
  for (const poset of POSETS) {
    assert.equal(allExtensions(poset.n, poset.precedence).length, poset.count, poset.name);
    assert.equal(countLinearExtensions(poset.n, poset.precedence), BigInt(poset.count), poset.name);
  }
  // A fence (zigzag) of 22 elements: prime, about 2^16 downsets, and 69,348,874,393,137,901
  // orders (Euler's zigzag number E22), more than 2^53: counted with BigInts.
  const zigzag = zigzagFence(22);
  assert.equal(countLinearExtensions(22, zigzag), 69348874393137901n);
  assert.equal(countLinearExtensions(8, zigzagFence(8)), 1385n);
});

/** a0 < a1 > a2 < a3 ... with elements numbered so that every pair goes forward. */
function zigzagFence(n: number): Array<[number, number]> {
  // Lows get the first numbers, highs the last; high h sits above the lows on both sides of it.
  const lows = Math.ceil(n / 2);
  const out: Array<[number, number]> = [];
  for (let i = 1; i < n; i += 2) {
    const high = lows + (i - 1) / 2;
    out.push([(i - 1) / 2, high]);
    if (i + 1 < n) out.push([(i + 1) / 2, high]);
  }
  return out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

test('a sample is uniform over all valid orders (chi-square, fixed seed)', () => {
  const random = seedrandom('order-uniformity');
  for (const poset of POSETS) {
    const draws = poset.count * 60;
    const p = uniformityPValue(poset.n, poset.precedence, draws, () => sampleLinearExtension(poset.n, poset.precedence, random).order);
    assert.ok(p > 0.001, `${poset.name}: p = ${p}`);
  }
});

test('the test rejects a biased sampler: a random topological sort is not uniform', () => {
  // Picking uniformly among the elements that may come next favours some orders of the N shape
  // (e.g. 0,1,2,3 has probability 1/2 * 1/2 * 1/2 = 1/8 but 1,3,0,2 has 1/2 * 1/2 * 1 = 1/4).
  const random = seedrandom('order-biased');
  const naive = (): number[] => {
    const placed = new Set<number>();
    const out: number[] = [];
    while (out.length < 4) {
      const ready = [0, 1, 2, 3].filter((x) => !placed.has(x) && N_SHAPE.every(([a, b]) => b !== x || placed.has(a)));
      const x = ready[uniformInt(random, ready.length)];
      placed.add(x);
      out.push(x);
    }
    return out;
  };
  const p = uniformityPValue(4, N_SHAPE, 5 * 60, naive);
  assert.ok(p < 0.001, `the biased sampler passed: p = ${p}`);
});

test('past the downset budget, the Markov chain fallback is close to uniform and says so', () => {
  const random = seedrandom('order-chain');
  let approximate = false;
  const p = uniformityPValue(4, N_SHAPE, 5 * 400, () => {
    const sample = sampleLinearExtension(4, N_SHAPE, random, { exactUpTo: 0, maxDownsets: 1 });
    approximate ||= sample.approximate;
    return sample.order;
  });
  assert.ok(approximate);
  assert.ok(p > 0.001, `p = ${p}`);
  assert.equal(sampleLinearExtension(4, N_SHAPE, random).approximate, false);
});

test('a large prime part with more than 2^53 orders samples valid orders, reproducibly', () => {
  const zigzag = zigzagFence(22);
  const a = sampleLinearExtension(22, zigzag, seedrandom('fence')).order;
  const b = sampleLinearExtension(22, zigzag, seedrandom('fence')).order;
  assert.deepEqual(a, b);
  assert.deepEqual([...a].sort((x, y) => x - y), Array.from({ length: 22 }, (_, i) => i));
  const position = new Map(a.map((x, k) => [x, k]));
  for (const [x, y] of zigzag) assert.ok(position.get(x)! < position.get(y)!);
  assert.notDeepEqual(a, Array.from({ length: 22 }, (_, i) => i));
});

test('a total order has no other valid order; a sample is then the identity', () => {
  assert.equal(isTotalOrder(3, [[0, 1], [1, 2]]), true);
  assert.equal(isTotalOrder(3, [[0, 2], [1, 2]]), false);
  assert.equal(isTotalOrder(1, []), true);
  assert.deepEqual(sampleLinearExtension(3, [[0, 1], [1, 2]], seedrandom('x')).order, [0, 1, 2]);
  assert.throws(() => sampleLinearExtension(2, [[1, 0]], seedrandom('x')), /precedence/);
});

test('uniform integers: every value reachable, bounds checked, big bounds too', () => {
  const random = seedrandom('ints');
  const seen = new Set<number>();
  for (let i = 0; i < 200; i++) seen.add(uniformInt(random, 7));
  assert.deepEqual([...seen].sort(), [0, 1, 2, 3, 4, 5, 6]);
  assert.throws(() => uniformInt(random, 0));
  const big = 10n ** 30n;
  for (let i = 0; i < 50; i++) {
    const x = uniformBigInt(random, big);
    assert.ok(x >= 0n && x < big);
  }
});
