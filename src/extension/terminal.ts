/**
 * The disguised terminal: a Pseudoterminal around the core TerminalSession, its `path:line`
 * links, and Run tests, which types the instance's test command in it.
 */
import * as vscode from 'vscode';
import { JUDGING_TESTS_NOTE, NOT_FOUND, testCommand } from '../core/workflow/solve/tests';
import { candidatePaths, findLinks } from '../core/view/terminal-links';
import { TerminalSession } from '../core/view/terminal-session';
import type { ExtensionHost } from './host';
import type { InstanceRecords } from './instance-records';
import { describeInterpreter, type Interpreters } from './interpreters';
import type { Log } from './log';
import type { ActionRecorder } from './sessions';
import { viewText, type OpenView, type ViewRegistry } from './views';

/** The session behind each disguised terminal's pty (for its folder, when a link is relative), and what the pty made. */
const sessions = new WeakMap<vscode.Pseudoterminal, { view: OpenView; session: TerminalSession; dispose(): void }>();

/** What a terminal takes from solving: the view's instance, its interpreter, the session that records the commands run. */
export interface TerminalSolving {
  readonly records: InstanceRecords;
  readonly interpreters: Interpreters;
  readonly sessions: ActionRecorder;
}

/** The disguised terminal: its command, its profile, its links; Run tests. */
export function registerTerminals(host: ExtensionHost, solving: TerminalSolving): vscode.Disposable {
  const { views, log } = host;
  let last: vscode.Terminal | undefined;
  const options = (view: OpenView) => createDisguisedTerminalOptions(view, solving, log);
  const open = async (): Promise<vscode.Terminal | undefined> => {
    const view = views.inWorkspace()[0];
    if (!view) {
      void vscode.window.showWarningMessage('Schrödinger: no disguised view is open in this window.');
      return undefined;
    }
    const made = await vscode.window.withProgress({ location: { viewId: 'schrodinger.solve' } }, () => options(view));
    last = vscode.window.createTerminal(made);
    last.show();
    return last;
  };
  const current = () => (last && last.exitStatus === undefined ? last : undefined);
  const runTests = async () => {
    const view = views.inWorkspace()[0];
    const instance = solving.records.forCommand(view);
    if (!view || !instance) return;
    const line = testCommand({
      testCmd: instance.testCmd,
      ids: [...(instance.failToPass ?? []), ...(instance.passToPass ?? [])],
      exists: (real) => {
        try {
          return view.fs.stat(view.fs.viewPathOf(real)).type === 'file';
        } catch {
          return false;
        }
      },
      pathToView: (real) => view.fs.viewPathOf(real),
      textToView: (text) => viewText(view, text),
    });
    const terminal = current() ?? (await open());
    terminal?.show();
    terminal?.sendText(`${line}\r`, false);
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand('schrodinger.openTerminal', () => void open()),
    vscode.commands.registerCommand('schrodinger.runTests', runTests),
    vscode.window.registerTerminalProfileProvider('schrodinger.terminal', {
      provideTerminalProfile: async () => {
        const view = views.inWorkspace()[0];
        if (!view) throw new Error('no disguised view is open in this window');
        return new vscode.TerminalProfile(await options(view));
      },
    }),
    vscode.window.registerTerminalLinkProvider(new TerminalLinks(views, (uri, line) => solving.sessions.recordAction(uri, 'file-open', { line, via: 'terminal-link' }))),
    vscode.window.onDidCloseTerminal((terminal) => {
      if (terminal === last) last = undefined;
      const pty = (terminal.creationOptions as Partial<vscode.ExtensionTerminalOptions>).pty;
      if (pty) sessions.get(pty)?.dispose();
    }),
  );
}

/** A disguised terminal on the view, with its interpreter first on PATH; the commands run are logged and recorded in the session. */
async function createDisguisedTerminalOptions(view: OpenView, solving: TerminalSolving, log: Log): Promise<vscode.ExtensionTerminalOptions> {
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number | void>();
  const chosen = await solving.interpreters.of(view);
  const searchPath = solving.interpreters.terminalPath(view, chosen);
  const banner = [chosen instanceof Error ? `\x1b[33mPython: ${chosen.message}\x1b[0m` : `\x1b[2m${describeInterpreter(chosen)}\x1b[0m`];
  const session = new TerminalSession({
    translator: view.translator,
    view: view.fs,
    rootName: view.record.rootName,
    write: (text) => write.fire(text),
    onClose: (code) => close.fire(code),
    onCommand: (line, code, ms) => {
      log.info(`terminal: "${line}" exited ${code} after ${ms} ms`);
      solving.sessions.recordAction(undefined, 'terminal', { command: line, exitCode: code, ms });
    },
    banner,
    env: searchPath ? { PATH: searchPath } : undefined,
    notes: solving.records.of(view) ? [{ when: NOT_FOUND, text: JUDGING_TESTS_NOTE }] : [],
  });
  let closed = false;
  const dispose = () => {
    if (closed) return;
    closed = true;
    session.close();
    write.dispose();
    close.dispose();
  };
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    onDidClose: close.event,
    open: () => session.open(),
    close: dispose,
    handleInput: (data) => session.handleInput(data),
  };
  sessions.set(pty, { view, session, dispose });
  return { name: `${view.record.rootName} (disguised)`, pty, iconPath: new vscode.ThemeIcon('eye-closed') };
}

interface ViewLink extends vscode.TerminalLink {
  uri: vscode.Uri;
  line: number;
  column?: number;
}

/** `path:line` and traceback locations in a disguised terminal open the view file at that line. */
export class TerminalLinks implements vscode.TerminalLinkProvider<ViewLink> {
  constructor(
    private readonly views: ViewRegistry,
    private readonly onOpen: (uri: vscode.Uri, line: number) => void = () => undefined,
  ) {}

  provideTerminalLinks(context: vscode.TerminalLinkContext): ViewLink[] {
    const options = context.terminal.creationOptions as Partial<vscode.ExtensionTerminalOptions>;
    const owner = options.pty ? sessions.get(options.pty) : undefined;
    if (!owner) return [];
    const { view, session } = owner;
    const out: ViewLink[] = [];
    for (const link of findLinks(context.line)) {
      const viewPath = candidatePaths(link.path, view.record.rootName, session.viewCwd).find((p) => {
        try {
          return view.fs.stat(p).type === 'file';
        } catch {
          return false;
        }
      });
      if (viewPath === undefined) continue;
      out.push({ startIndex: link.start, length: link.length, tooltip: `Open ${viewPath}:${link.line}`, uri: this.views.uriOf(view, viewPath), line: link.line, column: link.column });
    }
    return out;
  }

  async handleTerminalLink(link: ViewLink): Promise<void> {
    const position = new vscode.Position(link.line - 1, Math.max(0, (link.column ?? 1) - 1));
    await vscode.window.showTextDocument(link.uri, { selection: new vscode.Range(position, position), preview: false });
    this.onOpen(link.uri, link.line);
  }
}
