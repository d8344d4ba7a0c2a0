// Self-check of the e2e harness, independent of the extension's features: the extension is packaged
// and installed, but the workspace is a plain file: folder.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import {
  e2eTmp,
  editorText,
  explorerLabels,
  openWorkspace,
  packageExtension,
  quickOpen,
  startCodeServer,
  waitFor,
  type CodeServer,
  type Workbench,
} from './harness';

let server: CodeServer | undefined;
let bench: Workbench | undefined;
after(async () => {
  await bench?.close();
  await server?.stop();
});

test('the harness runs a real VS Code and drives it through Chromium', { timeout: 300_000 }, async () => {
  const folder = fs.mkdtempSync(path.join(e2eTmp(), 'plain-'));
  fs.writeFileSync(path.join(folder, 'hello.py'), 'print("hi")\n');

  const vsix = packageExtension();
  assert.ok(fs.statSync(vsix).size > 0, 'the VSIX is not empty');

  server = await startCodeServer({ vsix });
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(fs.readdirSync(server.extensionsDir).some((d) => d.startsWith('schrodinger-views.')), 'the VSIX is installed');

  bench = await openWorkspace(server, [pathToFileURL(folder).href], 'smoke');
  const page = bench.page;
  try {
    await waitFor(async () => (await explorerLabels(page)).includes('hello.py'), 60_000, 'hello.py in the explorer');
    await bench.screenshot('smoke-explorer');

    await quickOpen(page, 'hello.py');
    const text = await waitFor(async () => {
      const t = await editorText(page);
      return t.includes('print("hi")') ? t : '';
    }, 30_000, 'print("hi") in the editor');
    assert.equal(text.split('\n')[0], 'print("hi")');
    await bench.screenshot('smoke-editor');
  } catch (err) {
    const shot = await bench.screenshot('smoke-failure').catch(() => 'none');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\nscreenshot: ${shot}\ncode-server log: ${server.log().slice(-3000)}`);
  }
});
