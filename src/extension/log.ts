import * as vscode from 'vscode';

/**
 * The extension's diagnostics channel. Callers pass only view coordinates (view paths and view
 * names); nothing here knows original names, so solver mode cannot leak through the log.
 */
export class Log {
  private readonly channel = vscode.window.createOutputChannel('Schrödinger Views', { log: true });

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
