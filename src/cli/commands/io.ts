/**
 * What a command needs from the program: the same shapes as `Io` and `RunState` in ../main.ts,
 * declared here so that command files do not import main.ts (which imports them).
 */
export interface CliIo {
  stdout(text: string | Uint8Array): void;
  stderr(text: string): void;
  readStdin(): Buffer;
}

export interface CliState {
  exitCode: number;
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

export function warn(io: CliIo, message: string): void {
  io.stderr(`schrodinger: warning: ${message}\n`);
}
