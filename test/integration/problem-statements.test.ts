import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildBundle } from '../../src/core/disguise/bundle';
import { isEnglishWord } from '../../src/core/names/english';
import { forEachWord } from '../../src/core/names/words';
import { Translator } from '../../src/core/disguise/translator';
import { baseTree, sharedInstances } from '../shared-instances';

/**
 * Words of plain prose: outside code (backtick spans, fenced blocks), not part of a dotted
 * name or a path, not written as a call.
 */
function proseWords(text: string): Array<[number, number]> {
  const code = new Uint8Array(text.length);
  for (const m of text.matchAll(/```[\s\S]*?```|``[^`]+``|`[^`\n]+`/g)) code.fill(1, m.index!, m.index! + m[0].length);
  const out: Array<[number, number]> = [];
  forEachWord(text, (s, e) => {
    const before = text[s - 1] ?? ' ';
    const after = text[e] ?? ' ';
    const inName = /[./]/.test(before) || (/[./]/.test(after) && /\w/.test(text[e + 1] ?? '')) || after === '(';
    if (!code[s] && !inName) out.push([s, e]);
  });
  return out;
}

test('real problem statements: only name-shaped spans change; English stays English; the way back is exact', async () => {
  for (const instance of sharedInstances()) {
    const { bundle } = await buildBundle(baseTree(instance), { seed: 5, granularity: 'full', texts: [instance.problem_statement] });
    const translator = new Translator(bundle);
    const original = instance.problem_statement;
    const view = translator.textToView(original);
    assert.equal(translator.toReal(view), original, instance.instance_id);
    assert.notEqual(view, original, `${instance.instance_id}: nothing changed`);
    // Outside code, a plain English word (a single lowercase token) never changes.
    const own = new Set(bundle.names!.ownPackages);
    const originalWords = proseWords(original).map(([s, e]) => original.slice(s, e));
    const viewWords = new Set<string>();
    forEachWord(view, (s, e) => viewWords.add(view.slice(s, e)));
    for (const word of originalWords) {
      if (!/^[a-z]+$/.test(word) || !isEnglishWord(word) || own.has(word)) continue;
      assert.ok(viewWords.has(word), `${instance.instance_id}: the English word "${word}" was changed`);
    }
    // The repository's own package never survives.
    for (const name of own) assert.equal(new RegExp(`\\b${name}\\b`).test(view), false, `${instance.instance_id}: ${name} is visible`);
  }
});
