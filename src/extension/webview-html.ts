/**
 * The one way a panel's HTML is made: a strict Content-Security-Policy (nothing by default; styles
 * and scripts only with this page's fresh nonce; a script file only from the webview's own
 * resource origin; images only when the page asks), the nonce on every style and script, and
 * `escapeHtml` for every untrusted text put into the page.
 */
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import { escapeHtml } from '../core/common/html';

export interface WebviewPage {
  /** CSS of the page (trusted: written here, not from data). */
  style: string;
  /** The body's HTML; callers escape every untrusted text in it with `escapeHtml`. */
  body: string;
  /** Attributes of `<body>` (name -> value; values are escaped here). */
  bodyAttributes?: Record<string, string>;
  /** A script file of the extension, as `webview.asWebviewUri` gives it. */
  scriptUri?: vscode.Uri;
  /** A script written inline (trusted). */
  inlineScript?: string;
  /** Images from the webview's resource origin and `data:` URIs. */
  images?: boolean;
}

export { escapeHtml };

/** The page's HTML with a fresh nonce. */
export function webviewHtml(webview: Pick<vscode.Webview, 'cspSource'>, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const scripts = page.scriptUri !== undefined || page.inlineScript !== undefined;
  const policy = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    ...(scripts ? [`script-src 'nonce-${nonce}'${page.scriptUri !== undefined ? ` ${webview.cspSource}` : ''}`] : []),
    ...(page.images ? [`img-src ${webview.cspSource} data:`] : []),
  ].join('; ');
  const attributes = Object.entries(page.bodyAttributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  const scriptTags = [
    ...(page.scriptUri !== undefined ? [`<script nonce="${nonce}" src="${escapeHtml(page.scriptUri.toString())}"></script>`] : []),
    ...(page.inlineScript !== undefined ? [`<script nonce="${nonce}">\n${page.inlineScript}\n</script>`] : []),
  ].join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy};">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">
${page.style}
</style></head>
<body${attributes}>
${page.body}
${scriptTags}
</body></html>`;
}
