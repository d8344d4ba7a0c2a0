/**
 * What a run leaves behind while it works — scratch folders, test processes, containers — and
 * how nothing of it outlives the run. Each is registered with an undo while it exists: an
 * interrupted run (Ctrl-C, SIGTERM, SIGHUP) undoes every pending one at once and exits. A run
 * killed with SIGKILL cannot undo anything: its scratch folders carry its process id in their
 * names (`schrodinger-KIND-pPID-XXXXXX`), and the next run removes those of processes that are
 * gone (containers are swept by their labels, docker-runner.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const pending = new Map<number, () => void>();
let nextToken = 0;

/** Registers `undo` to run if the process is interrupted; the returned function unregisters it. */
export function onInterrupt(undo: () => void): () => void {
  const token = nextToken++;
  pending.set(token, undo);
  return () => {
    pending.delete(token);
  };
}

/** Runs every pending undo (each once, newest first), as an interrupted run must before it exits. */
export function undoPending(): void {
  const undos = [...pending.entries()].reverse();
  pending.clear();
  for (const [, undo] of undos) {
    try {
      undo();
    } catch {
      // one failed undo must not keep the others from running
    }
  }
}

/** How many undos are pending (for tests). */
export function pendingCount(): number {
  return pending.size;
}

const SIGNAL_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** For a command-line process: on SIGINT, SIGTERM and SIGHUP, undo what is pending and exit with 128 + the signal's number. */
export function exitCleanlyOnSignals(): void {
  for (const [signal, code] of Object.entries(SIGNAL_CODES) as [NodeJS.Signals, number][]) {
    process.once(signal, () => {
      undoPending();
      process.exit(code);
    });
  }
}

/** Sends `signal` to the process group `pid` leads (a child spawned `detached`); nothing when it is gone. */
export function killProcessGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // gone already
  }
}

/** Whether process `pid` runs (one of another user counts). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const SCRATCH = /^schrodinger-[a-z0-9-]+?-p(\d+)-[A-Za-z0-9]{6}$/;
let swept = false;

/**
 * A new empty scratch folder in the system's temporary folder, removed on interrupt; give it
 * back with removeScratch. The first in a process removes the scratch folders of runs that are gone.
 */
export function makeScratch(kind: string): string {
  if (!swept) {
    swept = true;
    removeStaleScratch();
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `schrodinger-${kind}-p${process.pid}-`));
  scratchUndos.set(folder, onInterrupt(() => fs.rmSync(folder, { recursive: true, force: true })));
  return folder;
}

const scratchUndos = new Map<string, () => void>();

/** Removes a folder of makeScratch. */
export function removeScratch(folder: string): void {
  fs.rmSync(folder, { recursive: true, force: true });
  scratchUndos.get(folder)?.();
  scratchUndos.delete(folder);
}

/** Removes the scratch folders in `parent` (default: the temporary folder) whose process is gone; returns their names. */
export function removeStaleScratch(parent = os.tmpdir()): string[] {
  const removed: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const match = SCRATCH.exec(entry.name);
    if (!match || !entry.isDirectory() || processAlive(Number(match[1]))) continue;
    fs.rmSync(path.join(parent, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
