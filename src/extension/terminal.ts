/** The disguised terminal: a Pseudoterminal around the core TerminalSession, and its `path:line` links. */
import * as vscode from 'vscode';
import { JUDGING_TESTS_NOTE, NOT_FOUND } from '../core/workflow/solve/tests';
import { candidatePaths, findLinks } from '../core/view/terminal-links';
import { TerminalSession } from '../core/view/terminal-session';
import { describeInterpreter, instanceOf, interpreterOf, terminalPath } from './instances';
import type { ExtensionHost } from './host';
import type { Log } from './log';
import type { OpenView, ViewRegistry } from './views';

/** The session behind each disguised terminal's pty (for its folder, when a link is relative), and what the pty made. */
const sessions = new WeakMap<vscode.Pseudoterminal, { view: OpenView; session: TerminalSession; dispose(): void }>();

export interface DisguisedTerminals extends vscode.Disposable {
  /** Opens a new disguised terminal on the window's view (undefined, with a warning, when there is none). */
  open(): Promise<vscode.Terminal | undefined>;
  /** The terminal opened last, while it is open. */
  current(): vscode.Terminal | undefined;
}

/** The disguised terminal: its command, its profile, its links. */
export function registerTerminals(host: ExtensionHost): DisguisedTerminals {
  const { views, log } = host;
  let last: vscode.Terminal | undefined;
  const options = (view: OpenView) => createDisguisedTerminalOptions(view, log, (command, exitCode, ms) => host.recordAction(undefined, 'terminal', { command, exitCode, ms }));
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
  const registrations = vscode.Disposable.from(
    vscode.commands.registerCommand('schrodinger.openTerminal', () => void open()),
    vscode.window.registerTerminalProfileProvider('schrodinger.terminal', {
      provideTerminalProfile: async () => {
        const view = views.inWorkspace()[0];
        if (!view) throw new Error('no disguised view is open in this window');
        return new vscode.TerminalProfile(await options(view));
      },
    }),
    vscode.window.registerTerminalLinkProvider(new TerminalLinks(views, (uri, line) => host.recordAction(uri, 'file-open', { line, via: 'terminal-link' }))),
    vscode.window.onDidCloseTerminal((terminal) => {
      if (terminal === last) last = undefined;
      const pty = (terminal.creationOptions as Partial<vscode.ExtensionTerminalOptions>).pty;
      if (pty) sessions.get(pty)?.dispose();
    }),
  );
  return {
    open,
    current: () => (last && last.exitStatus === undefined ? last : undefined),
    dispose: () => registrations.dispose(),
  };
}

export async function createDisguisedTerminalOptions(
  view: OpenView,
  log: Log,
  onCommand: (line: string, exitCode: number, ms: number) => void = () => undefined,
): Promise<vscode.ExtensionTerminalOptions> {
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number | void>();
  const chosen = await interpreterOf(view);
  const searchPath = terminalPath(view, chosen);
  const banner = [chosen instanceof Error ? `\x1b[33mPython: ${chosen.message}\x1b[0m` : `\x1b[2m${describeInterpreter(chosen)}\x1b[0m`];
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
    banner,
    env: searchPath ? { PATH: searchPath } : undefined,
    notes: instanceOf(view) ? [{ when: NOT_FOUND, text: JUDGING_TESTS_NOTE }] : [],
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
