/**
 * The problem statement panel: the instance's issue text in view names, rendered without raw HTML
 * or scripts, and a note that the tests that judge the task are not in the working copy.
 */
import MarkdownIt from 'markdown-it';
import * as vscode from 'vscode';
import type { InstanceRecord } from '../core/workflow/instance-record';
import { Disposable } from './lifecycle';
import { viewText, type OpenView } from './views';
import { webviewHtml } from './webview-html';

export class ProblemStatementPanel extends Disposable {
  static readonly viewType = 'schrodinger.problemStatement';

  private readonly closed = this.register(new vscode.EventEmitter<void>());
  /** Fires when the panel goes away (the person closed it, or it was disposed). */
  readonly onDidClose = this.closed.event;

  /** A new panel beside the editor, showing the statement of the view's instance. */
  static open(view: OpenView, instance: InstanceRecord): ProblemStatementPanel {
    const panel = vscode.window.createWebviewPanel(ProblemStatementPanel.viewType, 'Problem statement', vscode.ViewColumn.Beside, {
      enableScripts: false,
      localResourceRoots: [],
    });
    return new ProblemStatementPanel(panel, view, instance);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    view: OpenView,
    instance: InstanceRecord,
  ) {
    super();
    this.register(panel.onDidDispose(() => this.dispose()));
    panel.webview.html = webviewHtml(panel.webview, { style: STATEMENT_STYLE, body: statementBody(view, instance), images: true });
  }

  reveal(): void {
    this.panel.reveal(vscode.ViewColumn.Beside);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.closed.fire();
    super.dispose();
    this.panel.dispose();
  }
}

function statementBody(view: OpenView, instance: InstanceRecord): string {
  // Issue text is untrusted: raw HTML off, links not made from bare text, then a strict CSP.
  const markdown = new MarkdownIt({ html: false, linkify: false });
  const body = markdown.render(viewText(view, instance.problemStatement));
  const judging = (instance.failToPass?.length ?? 0) > 0
    ? `<p class="note">The tests that judge this task (${instance.failToPass!.length} failing now, expected to pass after your fix) are <strong>not in the working copy</strong>: they are added when your patch is evaluated, so their ids are not found if you type them. Run the existing test files (<em>Run tests</em> in the Solve side bar) or write your own check.</p>`
    : '<p class="note">The tests that judge this task are <strong>not in the working copy</strong>: they are added when your patch is evaluated. Run the existing tests or write your own check.</p>';
  return `${judging}${body}`;
}

const STATEMENT_STYLE = 'body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em;line-height:1.5}pre,code{font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background)}pre{padding:.6em;overflow:auto}.note{border-left:3px solid var(--vscode-editorInfo-foreground);padding:.4em .8em;background:var(--vscode-textBlockQuote-background)}';
