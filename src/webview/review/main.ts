// The review panel's front-end, for every reviewed level. Every text goes in through textContent
// (statements and code are untrusted), the keyboard drives everything, the rubric is drawn from
// the fields each item message carries, and the extension validates every message.
import { PROBE_JUDGEMENTS, type FromWebview, type ItemMessage, type Level1Payload, type Level3Payload, type Level4Payload, type ProbeJudgementPayload, type RubricFieldMessage, type RubricMessage, type Segment, type ToWebview } from './protocol';

interface PanelState {
  sources?: unknown;
  index?: number;
}
interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): PanelState | undefined;
  setState(state: PanelState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
// What the panel was opened on, kept in the webview state so a reload can restore the panel.
const initial = JSON.parse(document.body.dataset.state ?? '{}') as PanelState;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let current: ItemMessage | undefined;
let shownAt = Date.now();
let startedAt = new Date().toISOString();
let fields: RubricFieldMessage[] = [];
let rubric: RubricMessage = {};
let editing = false;

function el(tag: string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// A small Python highlighter: comments, strings, numbers, keywords; everything else plain text.
const TOKENS = /(#[^\n]*)|("""[\s\S]*?"""|'''[\s\S]*?'''|[rbfu]?"(?:\\.|[^"\\\n])*"|[rbfu]?'(?:\\.|[^'\\\n])*')|\b(\d+(?:\.\d+)?)\b|\b(def|class|return|if|elif|else|for|while|in|not|and|or|is|None|True|False|import|from|as|with|try|except|finally|raise|yield|lambda|pass|break|continue|global|nonlocal|assert|del|async|await|self)\b/g;
const TOKEN_CLASSES = ['tok-com', 'tok-str', 'tok-num', 'tok-kw'];

function highlighted(text: string): Node[] {
  const out: Node[] = [];
  let at = 0;
  for (const match of text.matchAll(TOKENS)) {
    if (match.index > at) out.push(document.createTextNode(text.slice(at, match.index)));
    const group = match.slice(1).findIndex((g) => g !== undefined);
    out.push(el('span', match[0], TOKEN_CLASSES[group]));
    at = match.index + match[0].length;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * Fills the two sides of a diff: the original with the removed parts, the changed text with the
 * added parts. Code sides are kept line-aligned: a change's shorter side gets blank filler lines.
 */
function renderDiff(left: HTMLElement, right: HTMLElement, diff: Segment[], code: boolean): void {
  left.replaceChildren();
  right.replaceChildren();
  const content = (text: string): Node[] => (code ? highlighted(text) : [document.createTextNode(text)]);
  const marked = (tag: string, text: string) => {
    const node = el(tag);
    node.append(...content(text));
    return node;
  };
  const filler = (lines: number) => el('span', ' \n'.repeat(lines), 'filler');
  for (let k = 0; k < diff.length; k++) {
    const part = diff[k];
    if (part.kind === 'same') {
      left.append(...content(part.text));
      right.append(...content(part.text));
      continue;
    }
    // A change: what was removed, what was added in its place (either may be empty).
    const removed = part.kind === 'removed' ? part.text : '';
    const added = part.kind === 'added' ? part.text : diff[k + 1]?.kind === 'added' ? diff[++k].text : '';
    if (removed) left.append(marked('del', removed));
    if (added) right.append(marked('ins', added));
    if (code) {
      const gap = lineCount(removed) - lineCount(added);
      if (gap > 0) right.append(filler(gap));
      if (gap < 0) left.append(filler(-gap));
    }
  }
}

function columns(leftTitle: string, rightTitle: string, diff: Segment[]): HTMLElement {
  const box = el('div', undefined, 'columns');
  const left = el('pre', undefined, 'code');
  const right = el('pre', undefined, 'code');
  const side = (title: string, pre: HTMLElement) => {
    const section = el('section');
    section.append(el('h4', title), pre);
    return section;
  };
  box.append(side(leftTitle, left), side(rightTitle, right));
  renderDiff(left, right, diff, true);
  return box;
}

function renderStatement(item: Level1Payload): void {
  renderDiff($('original'), $('transformed'), item.diff, false);
  ($('editor') as HTMLTextAreaElement).value = item.transformed;
  $('editor').hidden = true;
  $('transformed').hidden = false;
  const checklist = $('checklist');
  checklist.replaceChildren();
  for (const entry of item.checklist) {
    const li = el('li', undefined, `check ${entry.status}`);
    li.append(el('span', entry.status, 'badge'), el('span', ` ${entry.element}`), el('span', entry.note ? ` — ${entry.note}` : '', 'note'));
    checklist.append(li);
  }
  for (const addition of item.additions) checklist.append(el('li', `added: ${addition}`, 'check contradicted'));
  if (checklist.childElementCount === 0) checklist.append(el('li', 'no verifier findings', 'check'));
}

function gateTable(title: string, tests: Array<{ test: string; outcome: string }>, expected: string[]): HTMLElement {
  const section = el('section');
  const wrong = tests.filter((t) => !expected.includes(t.outcome)).length;
  section.append(el('h4', `${title}: ${tests.length - wrong}/${tests.length} as expected (${expected.join(' or ')})`));
  const table = el('table', undefined, 'gate');
  for (const { test, outcome } of tests) {
    const row = el('tr');
    row.append(el('td', outcome, expected.includes(outcome) ? 'ok' : 'bad'), el('td', test));
    table.append(row);
  }
  const scroll = el('div', undefined, 'tests');
  scroll.append(table);
  section.append(scroll);
  return section;
}

function renderRewrite(box: HTMLElement, item: Level4Payload): void {
  box.append(el('h3', 'Problem statement'), el('div', item.problemStatement, 'statement'));
  for (const f of item.functions) {
    box.append(el('h3', `${f.path} — ${f.name}`), el('p', `difference ${f.difference.toFixed(3)} · ${f.transformations.length} transformations`, 'muted'));
    box.append(columns('Original', 'Rewritten', f.diff));
    // The edit box (`e`): the rewritten function as in the file, from its def line.
    const editor = el('textarea', undefined, 'rewrite-editor') as HTMLTextAreaElement;
    editor.value = f.rewritten;
    editor.hidden = true;
    editor.spellcheck = false;
    editor.rows = Math.min(24, lineCount(f.rewritten) + 1);
    editor.dataset.path = f.path;
    editor.dataset.name = f.name;
    editor.setAttribute('aria-label', `Edit the rewritten ${f.name}`);
    box.append(editor);
    const record = el('ol', undefined, 'record');
    for (const t of f.transformations) record.append(el('li', `${t.kind} (line ${t.line})${t.detail ? `: ${t.detail}` : ''}`));
    box.append(el('h4', "Rewriter's record"), record);
  }
  const gate = item.gate;
  box.append(el('h3', `Gate: ${gate.status} (attempt ${gate.attempt} of ${item.attempts}, seed ${gate.seed})`));
  box.append(gateTable('FAIL_TO_PASS (the bug must still be there)', gate.failToPass, ['failed', 'error']), gateTable('PASS_TO_PASS (behaviour must be kept)', gate.passToPass, ['passed']));
}

function renderReorder(box: HTMLElement, item: Level3Payload): void {
  if (item.problem) box.append(el('p', item.problem, 'bad'));
  box.append(el('h3', 'Unit order'));
  for (const c of item.containers) {
    for (const run of c.runs) {
      const orders = el('div', undefined, 'columns');
      const list = (title: string, names: string[], other: string[]) => {
        const section = el('section');
        const ol = el('ol', undefined, 'units');
        names.forEach((name, k) => ol.append(el('li', name, other[k] === name ? '' : 'moved')));
        section.append(el('h4', `${title} — ${c.container}`), ol);
        return section;
      };
      orders.append(list('Original order', run.original, run.reordered), list('New order', run.reordered, run.original));
      box.append(orders);
    }
  }
  box.append(el('h3', 'Text'), columns('Original', 'Reordered', item.diff));
}

function renderJudgements(box: HTMLElement, item: ProbeJudgementPayload): void {
  box.append(el('h3', `Reveal probe: ${item.variant}, model ${item.model}`), el('p', `The judge's result: ${item.category.replace(/_/g, ' ')}, first at round ${item.round}. Check each round's category against the answer.`));
  const units = el('ol');
  for (const unit of item.units) units.append(el('li', unit));
  box.append(el('h4', 'Units revealed, in order'), units);
  for (const r of item.rounds) {
    const section = el('section', undefined, 'round');
    section.append(el('h4', `Round ${r.round} (${r.round} unit${r.round === 1 ? '' : 's'} shown) — judged: ${r.category.replace(/_/g, ' ')}`), el('pre', r.answer), el('p', r.evidence ? `Evidence: ${r.evidence}` : 'No evidence quoted.', 'muted'));
    box.append(section);
  }
}

function render(message: ItemMessage): void {
  current = message;
  vscode.setState({ sources: initial.sources, index: message.index });
  shownAt = Date.now();
  startedAt = new Date().toISOString();
  editing = false;
  const { item } = message;
  fields = message.rubricFields;
  rubric = item.verdict?.rubric ?? Object.fromEntries(fields.map((f) => [f.key, f.initial]));
  $('progress').textContent = `${message.index + 1}/${message.total}`;
  $('decided').textContent = `${message.decided} decided`;
  $('item-id').textContent = item.level === 1 ? item.id : item.level === PROBE_JUDGEMENTS ? `Probe judgements: ${item.id}` : `Level ${item.level}: ${item.id}`;
  $('status').textContent = item.verdict ? `your verdict: ${item.verdict.verdict}` : 'no verdict yet';
  $('statement-item').hidden = item.level !== 1;
  $('code-item').hidden = item.level === 1;
  const box = $('code-item');
  box.replaceChildren();
  if (item.level === 1) renderStatement(item);
  else if (item.level === 4) renderRewrite(box, item);
  else if (item.level === PROBE_JUDGEMENTS) renderJudgements(box, item);
  else renderReorder(box, item);
  const text = fields.find((f) => f.kind === 'text');
  $('other-text').hidden = !text;
  ($('other-text') as HTMLInputElement).value = text ? String(rubric[text.key] ?? '') : '';
  ($('note') as HTMLTextAreaElement).value = item.verdict?.note ?? '';
  $('hint').textContent = '';
  $('regate-failing').replaceChildren();
  $('keys').textContent = [
    'a accept · r reject · n/→ next · p/← previous · u undo',
    ...(item.level === 1 ? ['e edit the transformed text'] : item.level === 4 ? ['e edit the rewrite (Ctrl+Enter gates it again and accepts it if it passes, Esc cancels)'] : []),
    ...fields.map((f) => `${f.shortcut} ${f.kind === 'text' ? 'writes' : f.kind === 'boolean' ? 'toggles' : 'cycles'} ${f.label.replace(/, .*$/, '').toLowerCase()}`),
    `Ctrl+Enter in the note rejects${item.level === 1 ? ', in the editor accepts' : ''} · Esc leaves a text box`,
  ].join(' · ');
  renderRubric();
}

function renderRubric(): void {
  const box = $('rubric');
  box.replaceChildren(el('span', 'Rubric: ', 'muted'));
  fields.forEach((f, i) => {
    if (i > 0) box.append(document.createTextNode(' · '));
    const value = rubric[f.key];
    const shown = f.kind === 'boolean' ? (value ? 'yes' : 'no') : f.kind === 'text' ? (String(value).trim() === '' ? 'none' : `“${String(value).length > 40 ? `${String(value).slice(0, 40)}…` : String(value)}”`) : String(value);
    const b = el('b', shown);
    b.id = `rubric-${f.key}`;
    box.append(document.createTextNode(`${f.label}: `), b, document.createTextNode(` (${f.shortcut})`));
  });
}

function change(field: RubricFieldMessage): void {
  if (field.kind === 'text') {
    $('other-text').focus();
    return;
  }
  const value = rubric[field.key];
  if (field.kind === 'boolean') rubric[field.key] = !value;
  else {
    const min = field.min ?? 0;
    const max = field.max ?? 3;
    rubric[field.key] = (value as number) >= max ? min : (value as number) + 1;
  }
  renderRubric();
}

function decide(verdict: 'accept' | 'reject'): void {
  if (!current) return;
  const note = ($('note') as HTMLTextAreaElement).value.trim();
  if (verdict === 'reject' && note === '') {
    $('hint').textContent = 'A rejection needs a note: write it, then press Ctrl+Enter.';
    $('note').focus();
    return;
  }
  const text = fields.find((f) => f.kind === 'text');
  if (text) rubric[text.key] = ($('other-text') as HTMLInputElement).value.trim();
  const editor = $('editor') as HTMLTextAreaElement;
  const corrected = current.item.level === 1 && (editing || editor.value !== current.item.transformed) ? editor.value : null;
  vscode.postMessage({ type: 'decide', index: current.index, verdict, rubric, note, corrected, startedAt, timeSpentMs: Date.now() - shownAt });
}

const rewriteEditors = () => Array.from(document.querySelectorAll<HTMLTextAreaElement>('textarea.rewrite-editor'));

function editRewrite(): void {
  editing = true;
  const editors = rewriteEditors();
  for (const editor of editors) editor.hidden = false;
  editors[0]?.focus();
  editors[0]?.setSelectionRange(0, 0);
}

function cancelRewrite(): void {
  if (!current || current.item.level !== 4) return;
  const { functions } = current.item;
  rewriteEditors().forEach((editor, k) => {
    editor.value = functions[k]?.rewritten ?? editor.value;
    editor.hidden = true;
  });
  editing = false;
  $('hint').textContent = 'edit cancelled';
  $('regate-failing').replaceChildren();
}

/** Sends the edited functions to be gated again; the verdict (accepted, with the correction) lands only when they pass. */
function saveRewrite(): void {
  if (!current || current.item.level !== 4) return;
  const { functions } = current.item;
  const edits = rewriteEditors()
    .map((editor, k) => ({ path: editor.dataset.path ?? '', name: editor.dataset.name ?? '', text: editor.value, before: functions[k]?.rewritten }))
    .filter((e) => e.text !== e.before)
    .map(({ path, name, text }) => ({ path, name, text }));
  if (edits.length === 0) {
    $('hint').textContent = 'Nothing was edited: change the rewrite, or press Esc.';
    return;
  }
  const text = fields.find((f) => f.kind === 'text');
  if (text) rubric[text.key] = ($('other-text') as HTMLInputElement).value.trim();
  const note = ($('note') as HTMLTextAreaElement).value.trim();
  $('regate-failing').replaceChildren();
  vscode.postMessage({ type: 'regate', index: current.index, edits, rubric, note, startedAt, timeSpentMs: Date.now() - shownAt });
}

function go(delta: number): void {
  if (!current) return;
  const index = Math.min(current.total - 1, Math.max(0, current.index + delta));
  if (index !== current.index) vscode.postMessage({ type: 'go', index });
}

document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  const typing = target.tagName === 'TEXTAREA' || target.tagName === 'INPUT';
  if (typing && target.classList.contains('rewrite-editor')) {
    const editor = target as HTMLTextAreaElement;
    if (event.key === 'Enter' && event.ctrlKey) {
      event.preventDefault();
      saveRewrite();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      cancelRewrite();
    } else if (event.key === 'Tab' && !event.ctrlKey && !event.altKey && !event.metaKey && !event.shiftKey) {
      // Python indentation: Tab types a tab here (the file's own indentation may be tabs).
      event.preventDefault();
      editor.setRangeText('\t', editor.selectionStart, editor.selectionEnd, 'end');
    }
    return;
  }
  if (typing) {
    if (target.id === 'other-text' && (event.key === 'Enter' || event.key === 'Escape')) {
      event.preventDefault();
      const text = fields.find((f) => f.kind === 'text');
      if (text) rubric[text.key] = (target as HTMLInputElement).value.trim();
      target.blur();
      renderRubric();
    } else if (event.key === 'Enter' && event.ctrlKey) {
      event.preventDefault();
      decide(target.id === 'note' ? 'reject' : 'accept');
    } else if (event.key === 'Escape') {
      target.blur();
    }
    return;
  }
  const actions: Record<string, () => void> = {
    a: () => decide('accept'),
    r: () => decide('reject'),
    n: () => go(1),
    ArrowRight: () => go(1),
    p: () => go(-1),
    ArrowLeft: () => go(-1),
    u: () => current && vscode.postMessage({ type: 'undo', index: current.index }),
  };
  if (current?.item.level === 4) actions.e = editRewrite;
  if (current?.item.level === 1) {
    actions.e = () => {
      editing = true;
      $('transformed').hidden = true;
      $('editor').hidden = false;
      $('editor').focus();
    };
  }
  for (const field of fields) actions[field.shortcut] = () => change(field);
  const action = actions[event.key];
  if (action && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    action();
  }
});

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message?.type === 'item') render(message);
  else if (message?.type === 'error') $('hint').textContent = message.message;
  else if (message?.type === 'regate' && message.index === current?.index) {
    $('hint').textContent = message.message;
    const list = $('regate-failing');
    list.replaceChildren(...message.failing.map((test) => el('li', test, 'bad')));
  }
});

vscode.postMessage({ type: 'ready' });
