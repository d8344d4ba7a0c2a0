import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import seedrandom from 'seedrandom';
import type { Node } from 'web-tree-sitter';
import { loadPythonParser } from '../src/core/python/parser';
import type { Site, TransformationKind } from '../src/core/rewrite/catalogue';
import { renameSites } from '../src/core/rewrite/locals';
import { applySites, CATALOGUE, contextOf, type RewriteWhere } from '../src/core/rewrite/rewriter';
import { PYTHON, tempDir } from './helpers';

export interface Transformed {
  text: string;
  /** Sites found (all of them, applied or not). */
  sites: number;
}

/**
 * Applies one transformation at every site it finds in the top-level function `name` (or the
 * method `Class.method` of a top-level class; sites that overlap an earlier one are left), once.
 */
export async function transformEverywhere(source: string, kind: TransformationKind, name = 'f', where: RewriteWhere = {}): Promise<Transformed> {
  const parser = await loadPythonParser();
  const tree = parser.parse(source);
  try {
    const [owner, method] = name.includes('.') ? name.split('.') : [undefined, name];
    const definitions = tree.rootNode.namedChildren.map((n) => (n?.type === 'decorated_definition' ? n.childForFieldName('definition') : n));
    const scope = owner === undefined ? tree.rootNode : definitions.find((n): n is Node => n?.type === 'class_definition' && n.childForFieldName('name')?.text === owner)?.childForFieldName('body');
    const fn = scope?.namedChildren.find((n): n is Node => n?.type === 'function_definition' && n.childForFieldName('name')?.text === method);
    if (!fn) throw new Error(`no function ${name}`);
    const context = contextOf(source, fn, where);
    if (!context) throw new Error(`function ${name} has no body of its own`);
    let sites: Site[];
    if (kind === 'rename-local') {
      const taken = new Set(tree.rootNode.descendantsOfType('identifier').map((id) => id!.text));
      sites = renameSites(context, seedrandom('rename'), taken);
    } else {
      const transformation = CATALOGUE.find((t) => t.kind === kind);
      if (!transformation) throw new Error(`no transformation ${kind}`);
      sites = transformation.sites(context);
    }
    const chosen: Site[] = [];
    for (const s of sites) if (!chosen.some((c) => c.start < s.end && s.start < c.end)) chosen.push(s);
    return { text: applySites(source, chosen, fn.startIndex, fn.endIndex), sites: sites.length };
  } finally {
    tree.delete();
  }
}

/** Whether Python's own parser accepts the source (Debian's python3, `ast.parse`). */
export function pythonParses(source: string): { ok: boolean; error: string } {
  const done = spawnSync(PYTHON, ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: source, encoding: 'utf8' });
  return { ok: done.status === 0, error: done.stderr };
}

export interface Behaviour {
  /** Inputs run. */
  n: number;
  /** Distinct outcomes of the original (a check that the inputs reach several paths). */
  outcomes: number;
  mismatches: Array<{ args: string; original: unknown; rewritten: unknown }>;
}

const COMPARE = String.raw`
import copy, json, random, sys
spec = json.load(open(sys.argv[1]))

def run(source, args):
    log = []
    namespace = {'log': log}
    exec(spec['prelude'], namespace)
    exec(compile(source, '<rewrite>', 'exec'), namespace)
    try:
        outcome = ['return', repr(namespace[spec['name']](*copy.deepcopy(args)))]
    except Exception as error:
        outcome = ['raise', type(error).__name__, str(error)]
    return [outcome, [repr(x) for x in log]]

rng = random.Random(spec['seed'])
helpers = {'log': []}
exec(spec['prelude'], helpers)
inputs = eval(spec['inputs'], {**helpers, 'rng': rng, 'random': random})
mismatches = []
outcomes = set()
for args in inputs:
    a = run(spec['original'], args)
    b = run(spec['rewritten'], args)
    outcomes.add(json.dumps(a))
    if a != b:
        mismatches.append({'args': repr(args), 'original': a, 'rewritten': b})
print(json.dumps({'n': len(inputs), 'outcomes': len(outcomes), 'mismatches': mismatches[:5]}))
`;

/** Helpers the compared functions may call: `t(x)` logs x and returns it (to see what is evaluated, in which order). */
export const PRELUDE = `
def t(x):
    log.append(x)
    return x

class Box:
    pass
`;

/**
 * Runs the original and the rewritten function `name` with real python3 on every input (a Python
 * expression over a seeded `rng` giving a list of argument tuples) and compares what each returns
 * or raises and what it logs.
 */
export function compareBehaviour(original: string, rewritten: string, inputs: string, options: { name?: string; seed?: number } = {}): Behaviour {
  const dir = tempDir('rewrite-behaviour');
  const spec = path.join(dir, 'spec.json');
  fs.writeFileSync(spec, JSON.stringify({ original, rewritten, inputs, prelude: PRELUDE, name: options.name ?? 'f', seed: options.seed ?? 7 }));
  const script = path.join(dir, 'compare.py');
  fs.writeFileSync(script, COMPARE);
  const done = spawnSync(PYTHON, [script, spec], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`python3 failed:\n${done.stderr}`);
  return JSON.parse(done.stdout) as Behaviour;
}
