/**
 * The four memorization probes, each on the materials of one instance and variant (materials.ts):
 *
 * - `filepath` (Liang et al., *The SWE-Bench Illusion*, file-path identification): given the
 *   repository as named and the statement only, name the file to change. Correct when the first
 *   path of the reply is one the gold patch changes, in the variant's names (`correct`) or, the
 *   reply's path translated back, in real ones (`correctReal`).
 * - `funcrepro` (ibid., function reproduction): the statement and the file with the patched
 *   functions taken out, their names and path; the reply's code scored by the 5-gram overlap with
 *   the fixed functions, and Δ5 (ngrams.ts), in the variant's names and, read back, in real ones.
 * - `prefix` (ibid., prefix completion): the file up to the first line the fix changes; the
 *   continuation scored by its 5-gram overlap with what follows in the fixed function, Δ5, and
 *   whether its first line is the fix's.
 * - `reveal` (the SchrodingerRepo paper's leakage probe): the instance as named, then the
 *   statement's units one by one from broad to specific (given, or split by one recorded call);
 *   after each round the model says what it recalls, and a judge (strict schema, temperature 0)
 *   files the answer under no recall, file or symbol recall, repair-logic recall or patch or test
 *   recall. The instance's result is the strongest recall and the first round that reached it.
 *
 * Every reply of a disguised variant is scanned for the original's distinctive names that the
 * input shown did not hold (original-scan.ts, which shares nothing with the translator): a reply
 * that names one recognised the task through the disguise (`deDisguised`).
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Finding } from '../disguise/original-scan';
import type { Materials } from './materials';
import { fiveGramScores } from './ngrams';

export const PROBES = ['filepath', 'funcrepro', 'prefix', 'reveal'] as const;
export type ProbeName = (typeof PROBES)[number];
export const PROBE_PROMPT_VERSION = 'probe-p1';

export const RECALL_CATEGORIES = ['none', 'file_or_symbol', 'repair_logic', 'patch_or_test'] as const;
export type RecallCategory = (typeof RECALL_CATEGORIES)[number];

const SYSTEM = 'You are an experienced software engineer. Answer from what you know; do not ask questions.';

export function messages(user: string): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

const fence = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

export function filepathPrompt(m: Materials): string {
  return `Repository: ${m.repository}\n\nIssue:\n${m.statement}\n\nWhich file of the repository must be changed to resolve this issue? Answer with the file's path relative to the repository's root, on one line, and nothing else.`;
}

export function funcreproPrompt(m: Materials): string | undefined {
  if (!m.context) return undefined;
  const names = m.functions.filter((f) => f.path === m.context!.path).map((f) => f.name);
  return `Repository: ${m.repository}\n\nIssue:\n${m.statement}\n\nBelow is ${m.context.path} with these functions taken out: ${names.join(', ')}. Write them again as they are in the repository once the issue is resolved. Reply with their Python code only.\n\n${fence(m.context.text)}`;
}

export function prefixPrompt(m: Materials): string | undefined {
  if (!m.prefix) return undefined;
  return `Repository: ${m.repository}\n\nIssue:\n${m.statement}\n\nBelow is the beginning of ${m.prefix.path}. Continue it verbatim from where it stops, as the file reads once the issue is resolved. Reply with the next lines of code only.\n\n${fence(m.prefix.text)}`;
}

export function revealPrompt(m: Materials, units: readonly string[], round: number): string {
  const shown = units.slice(0, round);
  return `${m.label}${shown.length > 0 ? `\n\nWhat is known of the issue so far:\n${shown.map((u, i) => `${i + 1}. ${u}`).join('\n')}` : ''}\n\nDo you know this issue? Say what you recall of it: the files and functions it concerns, how it was fixed, the tests that check the fix. If you do not recall it, say so.`;
}

export const SPLIT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['units'],
  properties: { units: { type: 'array', items: { type: 'string' } } },
} as const;

export function splitPrompt(statement: string): string {
  return `Split this issue into 3 to 6 units of information, ordered from the broadest (what area of the software) to the most specific (the exact behaviour, values, code). Each unit a sentence of the issue's own words. Reply with JSON {"units": [...]}.\n\nIssue:\n${statement}`;
}

export const JUDGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['category', 'evidence'],
  properties: { category: { type: 'string', enum: [...RECALL_CATEGORIES] }, evidence: { type: 'string' } },
} as const;

export function judgePrompt(m: Materials, answer: string): string {
  const functions = m.functions.map((f) => `${f.path}: ${f.name}\n${fence(f.fixed)}`).join('\n\n');
  return [
    "Judge what a model recalls of a software issue from its answer, against the issue's real fix.",
    'Categories, strongest last: "none" (no specific recall, or only what the question itself says); "file_or_symbol" (it names a file or function the fix changes);',
    '"repair_logic" (it states how the fix works); "patch_or_test" (it reproduces the fix\'s code or the test that checks it).',
    'Reply with JSON {"category": ..., "evidence": the words of the answer that show it, or ""}.',
    '',
    `The fix changes: ${m.goldPaths.join(', ')}`,
    functions,
    '',
    'The answer:',
    answer,
  ].join('\n');
}

const FILE_EXTENSIONS = /\.(py|pyi|pyx|pxd|c|h|cpp|rst|md|txt|cfg|ini|toml|json|ya?ml|html|css|js|ts)$/;

/** The first word of a reply that is a file path: it has a folder or a file extension (`a/`, `./` and quotes dropped; `parse.findall` is no path). */
export function firstPath(reply: string): string | undefined {
  for (const line of reply.split('\n')) {
    for (const word of line.replace(/[`'"*,;:()]/g, ' ').split(/\s+/)) {
      const path = word.replace(/^(\.\/|a\/|b\/)/, '').replace(/\.$/, '');
      if (/^[\w.-]+(\/[\w.-]+)*$/.test(path) && (FILE_EXTENSIONS.test(path) || (path.includes('/') && /\.\w+$/.test(path)))) return path;
    }
  }
  return undefined;
}

/** The code of a reply: its fenced blocks joined, else the whole reply. */
export function replyCode(reply: string): string {
  const blocks = [...reply.matchAll(/```[\w+-]*\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.length > 0 ? blocks.join('\n') : reply;
}

export interface FilepathScore {
  answer: string | null;
  correct: boolean;
  correctReal: boolean;
  /** The statement shown names no path or dotted module of the repository. */
  namesNoPath: boolean;
}

export function scoreFilepath(m: Materials, reply: string): FilepathScore {
  const answer = firstPath(reply) ?? null;
  const real = answer === null ? null : m.toRealPath(answer);
  return {
    answer,
    correct: answer !== null && m.goldPaths.includes(answer),
    correctReal: real !== null && m.realGoldPaths.includes(real),
    namesNoPath: !m.modules.some((module) => m.statement.includes(module)),
  };
}

/** The scores in the variant's names and, the reply read back in real names, against the real functions (`Real`). */
export function scoreFuncrepro(m: Materials, reply: string): Record<string, number> {
  const code = replyCode(reply);
  const at = m.functions.map((f, k) => (f.path === m.context?.path ? k : -1)).filter((k) => k !== -1);
  const join = (list: typeof m.functions, key: 'fixed' | 'buggy') => at.map((k) => list[k][key]).join('\n\n');
  const real = fiveGramScores(m.toReal(code), join(m.realFunctions, 'fixed'), join(m.realFunctions, 'buggy'));
  return round({ ...fiveGramScores(code, join(m.functions, 'fixed'), join(m.functions, 'buggy')), overlapReal: real.overlap, delta5Real: real.delta5 });
}

export function scorePrefix(m: Materials, reply: string): Record<string, number | boolean> {
  const code = replyCode(reply);
  const firstOf = (text: string) => text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  const real = fiveGramScores(m.toReal(code), m.prefix!.realFixed, m.prefix!.realBuggy);
  return { ...round({ ...fiveGramScores(code, m.prefix!.fixed, m.prefix!.buggy), overlapReal: real.overlap, delta5Real: real.delta5 }), firstLine: firstOf(code) !== '' && firstOf(code) === firstOf(m.prefix!.fixed) };
}

function round<T extends Record<string, number>>(scores: T): T {
  return Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, Math.round(v * 10000) / 10000])) as T;
}

/** The judge's reply read; a string says what is wrong with it. */
export function parseJudgement(content: string | null): { category: RecallCategory; evidence: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(content ?? '');
  } catch {
    return 'not JSON';
  }
  const v = value as { category?: unknown; evidence?: unknown };
  if (!RECALL_CATEGORIES.includes(v?.category as RecallCategory)) return `category must be one of ${RECALL_CATEGORIES.join(', ')}`;
  return { category: v.category as RecallCategory, evidence: typeof v.evidence === 'string' ? v.evidence : '' };
}

export function parseUnits(content: string | null): string[] | string {
  try {
    const value = JSON.parse(content ?? '') as { units?: unknown };
    if (!Array.isArray(value.units) || value.units.length === 0 || value.units.some((u) => typeof u !== 'string' || u.trim() === '')) return 'units must be a non-empty list of texts';
    return value.units as string[];
  } catch {
    return 'not JSON';
  }
}

/** The original's names a reply holds that the input shown did not: the model recognised the task through the disguise. */
export function deDisguisedNames(m: Materials, shown: string, reply: string): string[] {
  if (!m.originals) return [];
  const countable = (f: Finding) => ['name', 'word', 'package', 'path', 'repository', 'instance', 'commit'].includes(f.kind);
  const inShown = new Set(m.originals.scan('input', shown).map((f) => f.original));
  return [...new Set(m.originals.scan('reply', reply).filter(countable).map((f) => f.original))].filter((name) => !inShown.has(name)).sort();
}
