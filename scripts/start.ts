// `npm start`: the main job where it lives. Starts the extension in a real VS Code (code-server
// on 127.0.0.1) with a copy of the sample repository open in its disguise, prints the URL, and
// runs until Ctrl-C. `npm run demo:cli` shows the same disguise through the CLI instead.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageExtension, startCodeServer } from '../test/e2e/harness';

const ROOT = path.resolve(__dirname, '..');
const seed = Number(process.env.SEED ?? 42);

async function main(): Promise<void> {
  const setup = spawnSync('bash', [path.join(ROOT, 'scripts', 'e2e-setup.sh')], { stdio: 'inherit' });
  if (setup.status !== 0) throw new Error('scripts/e2e-setup.sh failed: see above');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-start-'));
  // However the process ends (the harness ends it on a signal, after killing code-server), the copy goes with it.
  process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
  const repository = path.join(work, 'shopcart');
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'shopcart'), repository, { recursive: true });
  console.log('packaging the extension...');
  const vsix = packageExtension();
  console.log('starting VS Code (code-server)...');
  const server = await startCodeServer({ vsix, settings: { 'schrodinger.defaultMode': process.env.MODE ?? 'solver' } });
  const workspace = path.join(work, 'sample.code-workspace');
  fs.writeFileSync(
    workspace,
    JSON.stringify({ folders: [{ path: repository }], settings: { 'schrodinger.openOnStartup': { repository, seed, granularity: 'full' } } }, null, 2),
  );
  console.log(`\nSchrödinger Views: the sample repository, disguised with seed ${seed}, in a real VS Code:\n`);
  console.log(`  ${server.url}/?workspace=${encodeURIComponent(workspace)}\n`);
  console.log(`The real files are in ${repository}; edits made in the view land there.`);
  console.log('Ctrl+P: Go to File in View · Ctrl+Shift+F: Find in View · F1 "Schrödinger": more. Ctrl-C stops.');
  // Ctrl-C: the harness kills code-server and ends the process; the exit handler above removes the copy.
  await new Promise(() => undefined);
}

main().catch((error: Error) => {
  console.error(`npm start: ${error.message}`);
  process.exit(1);
});
