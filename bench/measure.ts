import { spawnSync } from 'node:child_process';

/** Measuring helpers for `npm run bench`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function timeProcess(command: string, args: string[], env?: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  const done = spawnSync(command, args, { encoding: 'utf8', env: env ? { ...process.env, ...env } : process.env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${done.stderr}`);
  return ms;
}

export function timeIt(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function row(name: string, ours: number, baseline: number, goal: number, unit = 'ms'): string {
  const ratio = ours / baseline;
  const verdict = ratio <= goal ? 'meets' : 'MISSES';
  return `${name.padEnd(44)} ${ours.toFixed(0).padStart(7)} ${unit} vs ${baseline.toFixed(0).padStart(7)} ${unit}  ratio ${ratio.toFixed(2)}  (goal <= ${goal}: ${verdict})`;
}

