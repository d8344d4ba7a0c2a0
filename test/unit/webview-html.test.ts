import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { escapeHtml, webviewHtml } from '../../src/extension/webview-html';
import { ROOT } from '../helpers';

const webview = { cspSource: 'https://file+.vscode-resource.example' };

function policyOf(html: string): string {
  return /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
}

test('every page: nothing by default, styles only with its nonce, a fresh nonce each time', () => {
  const a = webviewHtml(webview, { style: 'body{color:red}', body: '<p>hi</p>' });
  const b = webviewHtml(webview, { style: 'body{color:red}', body: '<p>hi</p>' });
  const nonce = /style-src 'nonce-([^']+)'/.exec(policyOf(a))?.[1];
  assert.ok(nonce && nonce.length >= 22, policyOf(a));
  assert.notEqual(nonce, /style-src 'nonce-([^']+)'/.exec(policyOf(b))?.[1]);
  assert.match(policyOf(a), /^default-src 'none'; style-src 'nonce-[^']+';$/, 'no script or image source without a script or images');
  assert.ok(a.includes(`<style nonce="${nonce}">`));
  assert.equal(a.includes('<script'), false);
});

test('scripts carry the nonce; a script file is allowed from the resource origin only; inline scripts need nothing more', () => {
  const uri = { toString: () => 'https://file+.vscode-resource.example/dist/webview/review.js' } as never;
  const withFile = webviewHtml(webview, { style: '', body: '', scriptUri: uri });
  const nonce = /'nonce-([^']+)'/.exec(policyOf(withFile))![1];
  assert.match(policyOf(withFile), new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, '\\$&')}' https://file\\+\\.vscode-resource\\.example;`));
  assert.ok(withFile.includes(`<script nonce="${nonce}" src="https://file+.vscode-resource.example/dist/webview/review.js"></script>`));
  const inline = webviewHtml(webview, { style: '', body: '', inlineScript: 'acquireVsCodeApi();' });
  const inlineNonce = /'nonce-([^']+)'/.exec(policyOf(inline))![1];
  assert.match(policyOf(inline), /script-src 'nonce-[^' ]+';/);
  assert.ok(inline.includes(`<script nonce="${inlineNonce}">\nacquireVsCodeApi();\n</script>`));
  assert.equal((inline.match(/<script/g) ?? []).length, 1);
});

test('images only when asked; body attributes and untrusted text escaped', () => {
  assert.match(policyOf(webviewHtml(webview, { style: '', body: '', images: true })), /img-src https:\/\/file\+\.vscode-resource\.example data:;$/);
  const state = JSON.stringify({ note: `"><script>alert(1)</script>'&` });
  const page = webviewHtml(webview, { style: '', body: '', bodyAttributes: { 'data-state': state } });
  const attribute = /<body data-state="([^"]*)">/.exec(page)?.[1];
  assert.ok(attribute !== undefined, 'the attribute stays one attribute');
  assert.equal(attribute.includes('<'), false);
  assert.equal(attribute.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))), state, 'the webview reads back exactly the state');
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
});

test('every panel makes its HTML here: no other extension file writes a policy, a nonce or a document', () => {
  const folder = path.join(ROOT, 'src', 'extension');
  for (const file of fs.readdirSync(folder, { recursive: true }).map(String).filter((f) => f.endsWith('.ts') && f !== 'webview-html.ts')) {
    const text = fs.readFileSync(path.join(folder, file), 'utf8');
    assert.doesNotMatch(text, /Content-Security-Policy|nonce|<!DOCTYPE|<html/i, file);
  }
});
