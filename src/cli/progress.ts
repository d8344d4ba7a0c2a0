/** "phase: done/total files" on stderr: redrawn in place on a terminal, a line a second otherwise. */
export class Progress {
  private last = 0;
  private shown = false;
  private readonly tty: boolean;

  constructor(
    private readonly phase: string,
    private readonly write: (text: string) => void,
    tty: boolean = Boolean(process.stderr.isTTY),
  ) {
    this.tty = tty;
  }

  update(done: number, total: number): void {
    const now = Date.now();
    if (done < total && now - this.last < (this.tty ? 100 : 1000)) return;
    this.last = now;
    this.shown = true;
    const text = `${this.phase}: ${done}/${total} files`;
    this.write(this.tty ? `\r${text}\x1b[K` : `${text}\n`);
  }

  finish(): void {
    if (this.tty && this.shown) this.write('\n');
  }
}
