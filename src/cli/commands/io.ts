/**
 * The CLI's output: what a command needs from the program (its streams and exit code) and the
 * one way each kind of line is written. main.ts and every command print through these.
 */
import * as fs from 'node:fs';

export interface CliIo {
  stdout(text: string | Uint8Array): void;
  stderr(text: string): void;
  readStdin(): Buffer;
}

export interface CliState {
  exitCode: number;
}

/** The process's own streams. */
export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => fs.readFileSync(0),
};

/** A result on standard output: 2-space JSON and a newline. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function warn(io: CliIo, message: string): void {
  io.stderr(`schrodinger: warning: ${message}\n`);
}

/** The one line a failed run prints about its error. */
export function printError(io: CliIo, message: string): void {
  io.stderr(`schrodinger: error: ${message}\n`);
}
