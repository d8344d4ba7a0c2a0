/**
 * Collects the facts of every Python file and the words of every text file, on two threads
 * when the bundled worker is available (the machine's second core halves the parse).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { collectFile, type FileFacts } from './collect';
import { loadExternalNames } from './external-names';
import { loadPythonParser } from './parse';
import { forEachWord } from './words';

export interface CollectInput {
  /** Python sources, in repository order. */
  pythonTexts: string[];
  /** Every text file's content (Python included), for the vocabulary. */
  texts: string[];
  topLevelNames: string[];
}

export interface CollectOutput {
  facts: FileFacts[];
  words: Set<string>;
}

const WORKER_FILE = path.join(__dirname, 'collect-worker.js');
const MIN_FILES_FOR_WORKER = 64;

export async function collectAll(input: CollectInput, onProgress?: (done: number, total: number) => void): Promise<CollectOutput> {
  const total = input.pythonTexts.length;
  if (total < MIN_FILES_FOR_WORKER || !fs.existsSync(WORKER_FILE)) {
    const facts = await collectShare(input, indices(total), indices(input.texts.length), (done) => onProgress?.(done, total));
    return { facts: facts.facts, words: new Set(facts.words) };
  }
  // Odd files to the worker, even files here: shares of similar size, merged back in order.
  const mine = indices(total).filter((i) => i % 2 === 0);
  const theirs = indices(total).filter((i) => i % 2 === 1);
  const myTexts = indices(input.texts.length).filter((i) => i % 2 === 0);
  const theirTexts = indices(input.texts.length).filter((i) => i % 2 === 1);
  let workerDone = 0;
  let ownDone = 0;
  const report = () => onProgress?.(ownDone + workerDone, total);
  const worker = new Worker(WORKER_FILE, {
    workerData: {
      pythonTexts: theirs.map((i) => input.pythonTexts[i]),
      texts: theirTexts.map((i) => input.texts[i]),
      topLevelNames: input.topLevelNames,
    } satisfies CollectInput,
  });
  const fromWorker = new Promise<ShareResult>((resolve, reject) => {
    worker.on('message', (message: { progress?: number; result?: ShareResult }) => {
      if (message.progress !== undefined) {
        workerDone = message.progress;
        report();
      } else if (message.result) resolve(message.result);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the collecting worker stopped with exit code ${code}`));
    });
  });
  try {
    const own = await collectShare(input, mine, myTexts, (done) => {
      ownDone = done;
      report();
    });
    const other = await fromWorker;
    const facts: FileFacts[] = new Array(total);
    mine.forEach((fileIndex, k) => (facts[fileIndex] = own.facts[k]));
    theirs.forEach((fileIndex, k) => (facts[fileIndex] = other.facts[k]));
    const words = new Set(own.words);
    for (const word of other.words) words.add(word);
    return { facts, words };
  } finally {
    void worker.terminate();
  }
}

interface ShareResult {
  facts: FileFacts[];
  words: string[];
}

/** Collects the listed files; yields to the event loop now and then so progress flows. */
export async function collectShare(input: CollectInput, pythonIndices: number[], textIndices: number[], onProgress?: (done: number) => void): Promise<ShareResult> {
  const parser = await loadPythonParser();
  const external = loadExternalNames();
  const topLevel = new Set(input.topLevelNames);
  const resolver = {
    isInternal(dotted: string): boolean {
      const top = dotted.split('.')[0];
      return topLevel.has(top) && !external.stdlibTopModules.has(top);
    },
  };
  const facts: FileFacts[] = [];
  for (let k = 0; k < pythonIndices.length; k++) {
    facts.push(collectFile(parser, input.pythonTexts[pythonIndices[k]], resolver, external));
    if (k % 32 === 31) {
      onProgress?.(k + 1);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onProgress?.(pythonIndices.length);
  const words = new Set<string>();
  for (const i of textIndices) {
    const text = input.texts[i];
    forEachWord(text, (start, end) => {
      words.add(text.slice(start, end));
    });
  }
  return { facts, words: [...words] };
}

function indices(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
