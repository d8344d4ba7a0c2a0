import { type Command, CommanderError } from 'commander';
import { UsageError } from '../core/common/errors';
import { printError, type CliIo } from './commands/io';

/**
 * The program's output and error set-up, shared by main.ts and the tests' command harness:
 * commander's own errors (unknown option, missing argument) carry the same `schrodinger: error:`
 * prefix as ours, and nothing calls process.exit.
 */
export function configureProgram(program: Command, io: CliIo): Command {
  return program
    .showHelpAfterError(false)
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // commander formats its errors as "error: ..."
      outputError: (text, write) => write(`schrodinger: ${text}`),
    })
    .exitOverride();
}

/** Errors of the machine, not of the program: said in one line, exit 2. */
const FULL_DEVICE: Readonly<Record<string, string>> = { ENOSPC: 'no space left on the device', EDQUOT: 'the disk quota is used up', EROFS: 'the file system is read-only' };

/** The exit code of a run that threw `error`, after printing one line about it: 2 for bad input, 3 for a bug. */
export function exitCodeOf(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    return 2;
  }
  if (error instanceof UsageError) {
    printError(io, error.message);
    return 2;
  }
  const err = error as NodeJS.ErrnoException;
  const full = err?.code && FULL_DEVICE[err.code];
  if (full) {
    printError(io, `${full}${err.path ? `: ${err.path}` : ''} (nothing was finished: free space and run again)`);
    return 2;
  }
  if (err?.code && err.path) {
    printError(io, `${err.code === 'ENOENT' ? 'no such file or folder' : err.code}: ${err.path}`);
    return 2;
  }
  io.stderr(`schrodinger: internal error: ${err?.message ?? String(error)}\n`);
  return 3;
}
