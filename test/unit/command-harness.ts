// A test-only wrapper program for commands that live in src/cli/commands/ (main.ts wires them in
// the product): the same commander set-up and error handling as main.ts, in process.
import { Command, CommanderError } from 'commander';
import type { CliIo, CliState } from '../../src/cli/commands/io';
import { UsageError } from '../../src/core/errors';

export type Register = (program: Command, io: CliIo, state: CliState) => void;

export interface CommandResult {
  status: number;
  stdout: string;
  stderr: string;
}

export async function runCommand(registers: Register[], args: string[]): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += typeof text === 'string' ? text : Buffer.from(text).toString('utf8');
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: () => Buffer.alloc(0),
  };
  const state: CliState = { exitCode: 0 };
  const program = new Command('schrodinger')
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (t) => io.stdout(t), writeErr: (t) => io.stderr(t) })
    .exitOverride();
  for (const register of registers) register(program, io, state);
  let status: number;
  try {
    await program.parseAsync(args, { from: 'user' });
    status = state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      status = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    } else if (error instanceof UsageError) {
      io.stderr(`schrodinger: error: ${error.message}\n`);
      status = 2;
    } else {
      const err = error as NodeJS.ErrnoException;
      if (err?.code && err.path) {
        io.stderr(`schrodinger: error: ${err.code === 'ENOENT' ? 'no such file or folder' : err.code}: ${err.path}\n`);
        status = 2;
      } else {
        io.stderr(`schrodinger: internal error: ${err?.message ?? String(error)}\n`);
        status = 3;
      }
    }
  }
  return { status, stdout, stderr };
}

/** An in-memory program output: what a command printed on stdout and stderr. */
export function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout(text: string | Uint8Array) {
      io.out += typeof text === 'string' ? text : Buffer.from(text).toString('utf8');
    },
    stderr(text: string) {
      io.err += text;
    },
    readStdin: () => Buffer.alloc(0),
  };
  return io;
}
