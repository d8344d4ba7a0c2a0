import * as fs from 'node:fs';
import seedrandom from 'seedrandom';
import { UsageError } from '../common/errors';
import { PRODUCT_VERSION } from '../common/version';

/**
 * Reproducible review samples: the dataset's ids sorted (code-unit order), shuffled with a
 * seeded Fisher-Yates, the first n kept in their shuffled order (the review order). Separate
 * seeded streams choose the overlap (items a second reviewer also judges) and the places of the
 * gold items (known-bad transformations mixed in to measure recall), so adding an overlap or gold
 * items never changes which instances are drawn.
 */

export const SAMPLE_SCHEMA = 'schrodinger.sample/1';

export interface SampleItem {
  instance_id: string;
}

export interface Sample {
  schema: typeof SAMPLE_SCHEMA;
  level: number;
  seed: number;
  /** Items drawn at random (gold items come on top). */
  n: number;
  /** How many distinct ids the draw was made from (gold ids excluded). */
  population: number;
  /** Every item to review, in review order: the n drawn and the gold items mixed in. */
  items: SampleItem[];
  /** Ids (of drawn items) a second reviewer judges too, in review order. */
  overlap: string[];
  /** Ids of known-bad transformations mixed into `items`, sorted. */
  gold: string[];
  productVersion: string;
}

export interface SampleOptions {
  level: number;
  n: number;
  seed: number;
  /** Items for a second reviewer, chosen among the n drawn. */
  overlap?: number;
  /** Known-bad transformations to mix in; they are never drawn as ordinary items. */
  gold?: string[];
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Fisher-Yates with a seeded generator; returns a new array. */
export function seededShuffle<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function drawSample(ids: readonly string[], options: SampleOptions): Sample {
  const { level, n, seed } = options;
  if (!Number.isInteger(level) || level < 1) throw new UsageError(`bad level ${level}: expected a whole number >= 1`);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`bad n ${n}: expected a whole number >= 1`);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`bad seed ${seed}: expected a whole number >= 0`);
  const overlapSize = options.overlap ?? 0;
  if (!Number.isInteger(overlapSize) || overlapSize < 0) throw new UsageError(`bad overlap ${overlapSize}: expected a whole number >= 0`);
  if (overlapSize > n) throw new UsageError(`overlap of ${overlapSize} items asked for, but the sample has only ${n}`);

  const gold = [...new Set(options.gold ?? [])].sort(compareCodeUnits);
  const goldSet = new Set(gold);
  const population = [...new Set(ids)].filter((id) => !goldSet.has(id)).sort(compareCodeUnits);
  if (n > population.length) {
    throw new UsageError(
      `asked for ${n} items but the dataset has only ${population.length}${gold.length > 0 ? ' (gold items excluded)' : ''}`,
    );
  }

  const drawn = seededShuffle(population, seedrandom(`schrodinger-sample:${seed}:draw`)).slice(0, n);
  const overlapSet = new Set(seededShuffle(drawn, seedrandom(`schrodinger-sample:${seed}:overlap`)).slice(0, overlapSize));
  const overlap = drawn.filter((id) => overlapSet.has(id));

  const order = [...drawn];
  const place = seedrandom(`schrodinger-sample:${seed}:gold`);
  for (const id of gold) order.splice(Math.floor(place() * (order.length + 1)), 0, id);

  return {
    schema: SAMPLE_SCHEMA,
    level,
    seed,
    n,
    population: population.length,
    items: order.map((instance_id) => ({ instance_id })),
    overlap,
    gold,
    productVersion: PRODUCT_VERSION,
  };
}

export function serializeSample(sample: Sample): string {
  return `${JSON.stringify(sample, null, 2)}\n`;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Reads a sample file written by `schrodinger sample`. */
export function readSample(file: string): Sample {
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: not a sample file (malformed JSON: ${(error as Error).message})`);
  }
  const s = data as Partial<Sample>;
  if (
    !s ||
    typeof s !== 'object' ||
    s.schema !== SAMPLE_SCHEMA ||
    typeof s.level !== 'number' ||
    typeof s.seed !== 'number' ||
    !Array.isArray(s.items) ||
    !s.items.every((i) => i && typeof i.instance_id === 'string') ||
    !isStringArray(s.overlap) ||
    !isStringArray(s.gold)
  ) {
    throw new UsageError(`${file}: not a sample file (expected ${SAMPLE_SCHEMA})`);
  }
  return s as Sample;
}
