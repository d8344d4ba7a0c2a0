/** Worker thread entry (dist/collect-worker.js): collects its share of files, see collect-all.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { collectShare, type CollectInput } from './collect-all';

const input = workerData as CollectInput;
const all = (n: number) => Array.from({ length: n }, (_, i) => i);
collectShare(input, all(input.pythonTexts.length), all(input.texts.length), (done) => parentPort!.postMessage({ progress: done })).then(
  (result) => parentPort!.postMessage({ result }),
  (error: unknown) => {
    throw error;
  },
);
