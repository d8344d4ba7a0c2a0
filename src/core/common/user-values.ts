/**
 * Values a person types (command-line options, input boxes): whole numbers, seeds, decimals. A
 * value that does not fit is a UsageError naming the option and what it expects.
 */
import { UsageError } from './errors';

/** A whole number from the command line, or a UsageError naming the option. */
export function parseWhole(option: string, text: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const trimmed = String(text).trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < min || Number(trimmed) > max) {
    throw new UsageError(`bad ${option} "${text}": expected a whole number${max === Number.MAX_SAFE_INTEGER ? ` >= ${min}` : ` from ${min} to ${max}`}`);
  }
  return Number(trimmed);
}

/** A seed: a whole number from 0 to 999999999999999 (every seed: views, review samples, Level 1). */
export function parseSeed(text: string, option = 'seed'): number {
  if (!/^(0|[1-9][0-9]{0,14})$/.test(String(text).trim())) {
    throw new UsageError(`bad ${option} "${text}": expected a whole number from 0 to 999999999999999`);
  }
  return Number(String(text).trim());
}

/** A decimal number in [min, max]. */
export function parseDecimal(option: string, text: string, min: number, max: number): number {
  const trimmed = String(text).trim();
  const value = Number(trimmed);
  if (trimmed === '' || !/^[0-9.eE+-]+$/.test(trimmed) || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`bad ${option} "${text}": expected a number from ${min} to ${max}`);
  }
  return value;
}
