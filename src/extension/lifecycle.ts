/** A base for objects that own VS Code resources: what they register is disposed with them, last first. */
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Takes `value` into this object's keeping; after the object is disposed, disposes it at once. */
  protected register<T extends vscode.Disposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.owned.push(value);
    return value;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.owned.length > 0) this.owned.pop()!.dispose();
  }
}
