/**
 * The task of a disguised checkout as a solver or an agent is given it: the instance's Level 1
 * statement when there is one, else its problem statement, in the view's names when the
 * disguise has Level 2 (the repository's own names, its package's included, as the working copy
 * shows them). Used by `schrodinger task` and by `prepare`'s disguised dataset.
 */
import { translatorFor } from '../disguise/translator';
import type { Level1Row, Level1Status } from '../statement/level1';
import { checkoutNamesBundle } from './checkout-names';
import type { LevelsRecord } from './levels-record';

/** The instance's latest Level 1 rewrite among `rows` whose status is one of `statuses`; undefined when none. */
export function level1Statement(rows: readonly Level1Row[], instanceId: string, statuses: readonly Level1Status[]): string | undefined {
  const mine = rows.filter((row) => row.instance_id === instanceId && statuses.includes(row.status) && typeof row.final === 'string' && row.final.trim() !== '');
  return mine.length === 0 ? undefined : mine[mine.length - 1].final!;
}

/** `texts` as the checkout's view shows them (unchanged without Level 2). */
export async function textsInView(workingCopy: string, checkout: { record: LevelsRecord; folder: string }, texts: readonly string[], caches: { factsCache?: string; environmentCache?: string } = {}): Promise<string[]> {
  if (!checkout.record.levels.includes(2)) return [...texts];
  const translator = translatorFor(await checkoutNamesBundle(workingCopy, checkout, caches));
  return texts.map((text) => translator.textToView(text));
}
