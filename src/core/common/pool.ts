/**
 * Runs `work` on each item, at most `concurrency` at a time, in the items' order of starting. The
 * first error `work` lets through stops further items from starting; it is thrown once those
 * already running have ended (nothing is left running behind the caller's back).
 */
export async function runPool<T>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        await work(items[index], index);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), Math.max(1, items.length)) }, worker));
  if (failed) throw failed.error;
}
