/** A problem with what the user asked for (bad path, bad seed, foreign bundle...): one line, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
