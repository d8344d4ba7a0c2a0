// `npm start`: disguises the sample repository that ships with the project and shows the result.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const sample = path.join(root, 'test', 'fixtures', 'shopcart');
const seed = process.env.SEED ?? '42';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'schrodinger-demo-'));
const bundle = path.join(work, 'bundle.json');
const view = path.join(work, 'view');
const cli = (...args) => {
  const done = spawnSync(process.execPath, [path.join(root, 'bin', 'schrodinger.js'), ...args], { encoding: 'utf8' });
  if (done.status !== 0) {
    process.stderr.write(done.stderr);
    process.exit(done.status ?? 1);
  }
  return done.stdout;
};

const { statistics } = JSON.parse(cli('build', sample, '--seed', seed, '--out', bundle));
cli('materialize', sample, '--bundle', bundle, '--out', view);
const mapping = JSON.parse(fs.readFileSync(bundle, 'utf8'));
const round = JSON.parse(cli('roundtrip', sample, '--bundle', bundle));
const leaks = JSON.parse(cli('leaks', view, '--bundle', bundle));

console.log(`Schrödinger Views: the sample repository "shopcart", disguised with seed ${seed}\n`);
for (const name of ['shopcart', 'ShoppingCart', 'LineItem', 'add_item', 'PriceCalculator', 'load_plugin', 'get_status_display']) {
  const view = mapping.names.identifiers[name] ?? mapping.names.locals[name] ?? `(kept: ${mapping.names.excluded[name] ?? 'not defined'})`;
  console.log(`  ${name.padEnd(20)} -> ${view}`);
}
console.log(`\n  ${statistics.renamedNames} names renamed through ${statistics.tokens} tokens; of the distinctive names, ${statistics.visibleInCodePercent}% still visible in code, ${statistics.visibleAnywherePercent}% anywhere (prose included)`);
console.log(`  round trip: ${round.identical}/${round.files} files byte-identical; leak scan: ${leaks.leaks} leaks`);
console.log(`\n  view:   ${view}`);
console.log(`  bundle: ${bundle}`);
console.log(`  try:    cd ${view} && python3 -m pytest -q`);
