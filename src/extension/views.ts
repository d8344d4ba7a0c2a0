/**
 * The disguised views this installation knows: which real folder, seed, granularity, mode and
 * bundle each `schrodinger://<id>/<name>` workspace stands for. Kept in global state so a
 * window reload finds its view again.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { readBundleFile, type Bundle, type Granularity } from '../core/disguise/bundle';
import { NavigationIndex } from '../core/view/navigation/index';
import { translatorFor } from '../core/disguise/translator';
import type { Translator } from '../core/disguise/translator';
import { DisguisedFileSystem } from '../core/view/view-fs';

export const SCHEME = 'schrodinger';
export type Mode = 'solver' | 'reviewer';

export interface ViewRecord {
  id: string;
  repository: string;
  seed: number;
  granularity: Granularity;
  bundleFile: string;
  mode: Mode;
  /** The view's name for the repository folder: the first path segment of its URIs. */
  rootName: string;
}

export interface OpenView {
  record: ViewRecord;
  bundle: Bundle;
  translator: Translator;
  fs: DisguisedFileSystem;
  /** Definitions, references and symbols, read from the text `fs` serves (view names only). */
  navigation: NavigationIndex;
}

const STATE_KEY = 'schrodinger.views';

export function viewId(repository: string, seed: number, granularity: Granularity): string {
  return createHash('sha256').update(`${repository}\0${seed}\0${granularity}`).digest('hex').slice(0, 12);
}

export class ViewRegistry {
  private readonly open = new Map<string, OpenView>();
  private readonly modeChanged = new vscode.EventEmitter<OpenView>();
  readonly onDidChangeMode = this.modeChanged.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly hidden: () => string[],
  ) {}

  private records(): Record<string, ViewRecord> {
    return this.state.get<Record<string, ViewRecord>>(STATE_KEY, {});
  }

  async remember(record: ViewRecord): Promise<void> {
    await this.state.update(STATE_KEY, { ...this.records(), [record.id]: record });
    this.open.delete(record.id);
  }

  /** The view behind a `schrodinger:` URI, loaded on first use; undefined when unknown. */
  get(id: string): OpenView | undefined {
    let view = this.open.get(id);
    if (view) return view;
    const record = this.records()[id];
    if (!record) return undefined;
    const bundle = readBundleFile(record.bundleFile);
    const translator = translatorFor(bundle);
    const fs = new DisguisedFileSystem({ root: record.repository, translator, hidden: this.hidden() });
    const navigation = new NavigationIndex({ listFiles: () => fs.listFiles(), readText: (viewPath) => fs.readText(viewPath) });
    view = { record, bundle, translator, fs, navigation };
    this.open.set(id, view);
    return view;
  }

  /** Views of the current window's workspace folders. */
  inWorkspace(): OpenView[] {
    const out: OpenView[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== SCHEME) continue;
      const view = this.get(folder.uri.authority);
      if (view) out.push(view);
    }
    return out;
  }

  /** The view a URI belongs to, and the view path inside it. */
  resolve(uri: vscode.Uri): { view: OpenView; viewPath: string } | undefined {
    if (uri.scheme !== SCHEME) return undefined;
    const view = this.get(uri.authority);
    if (!view) return undefined;
    const segments = uri.path.split('/').filter(Boolean);
    if (segments[0] !== view.record.rootName) return undefined;
    return { view, viewPath: segments.slice(1).join('/') };
  }

  uriOf(view: OpenView, viewPath: string): vscode.Uri {
    const tail = viewPath ? `/${viewPath}` : '';
    return vscode.Uri.from({ scheme: SCHEME, authority: view.record.id, path: `/${view.record.rootName}${tail}` });
  }

  async setMode(view: OpenView, mode: Mode): Promise<void> {
    view.record = { ...view.record, mode };
    await this.state.update(STATE_KEY, { ...this.records(), [view.record.id]: view.record });
    this.modeChanged.fire(view);
  }

  dispose(): void {
    this.modeChanged.dispose();
  }
}

/** Free text (an issue, a test command) in the view's names: the one place the extension translates text. */
export function viewText(view: OpenView, text: string): string {
  return view.translator.textToView(text);
}

export type { Bundle };
