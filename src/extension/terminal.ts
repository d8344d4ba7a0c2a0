/** The disguised terminal: a Pseudoterminal around the core TerminalSession. */
import * as vscode from 'vscode';
import { TerminalSession } from '../core/terminal-session';
import type { Log } from './log';
import type { OpenView } from './views';

export function createDisguisedTerminalOptions(
  view: OpenView,
  log: Log,
  onCommand: (line: string, exitCode: number, ms: number) => void = () => undefined,
): vscode.ExtensionTerminalOptions {
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number | void>();
  const session = new TerminalSession({
    translator: view.translator,
    view: view.fs,
    rootName: view.record.rootName,
    write: (text) => write.fire(text),
    onClose: (code) => close.fire(code),
    onCommand: (line, code, ms) => {
      log.info(`terminal: "${line}" exited ${code} after ${ms} ms`);
      onCommand(line, code, ms);
    },
  });
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    onDidClose: close.event,
    open: () => session.open(),
    close: () => session.close(),
    handleInput: (data) => session.handleInput(data),
  };
  return { name: `${view.record.rootName} (disguised)`, pty, iconPath: new vscode.ThemeIcon('eye-closed') };
}
