// One whole `schrodinger build` run in this process, then its peak memory: {"maxRssMb": N}.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);

const [repo] = process.argv.slice(2);
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-bench-')), 'bundle.json');
const cli = require(path.resolve(here, '..', 'dist', 'cli.js'));
const quiet = { stdout: () => undefined, stderr: () => undefined, readStdin: () => Buffer.alloc(0) };
cli.main(['build', repo, '--seed', '1', '--out', out], quiet).then((code) => {
  if (code !== 0) throw new Error(`build failed with exit code ${code}`);
  process.stdout.write(`${JSON.stringify({ maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
});
