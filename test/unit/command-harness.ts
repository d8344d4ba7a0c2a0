// A test-only wrapper program for commands that live in src/cli/commands/ (main.ts wires them in
// the product): the same commander set-up and error handling as main.ts (src/cli/errors.ts), in process.
import { Command } from 'commander';
import type { CliIo, CliState } from '../../src/cli/commands/io';
import { configureProgram, exitCodeOf } from '../../src/cli/errors';

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
  const program = configureProgram(new Command('schrodinger'), io);
  for (const register of registers) register(program, io, state);
  let status: number;
  try {
    await program.parseAsync(args, { from: 'user' });
    status = state.exitCode;
  } catch (error) {
    status = exitCodeOf(error, io);
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

/** The whole program (src/cli/main.ts), in process: faster than a child process, same exit codes. */
export async function runProgram(args: string[], stdin: Buffer = Buffer.alloc(0)): Promise<CommandResult> {
  const { main } = await import('../../src/cli/main');
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    stdout: (text) => {
      stdout += typeof text === 'string' ? text : Buffer.from(text).toString('latin1');
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: () => stdin,
  });
  return { status, stdout, stderr };
}
