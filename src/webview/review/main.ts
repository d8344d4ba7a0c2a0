// The review panel's front-end. Every text goes in through textContent (statements are
// untrusted), the keyboard drives everything, and the extension validates every message.
import type { FromWebview, ItemMessage, RubricMessage, ToWebview } from './protocol';

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
let rubric: RubricMessage = { sameTask: true, informationPreserved: 0, solvable: 0, confidence: 3, otherProblem: false };
let editing = false;

function el(tag: string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function render(message: ItemMessage): void {
  current = message;
  vscode.setState({ sources: initial.sources, index: message.index });
  shownAt = Date.now();
  startedAt = new Date().toISOString();
  editing = false;
  const { item } = message;
  rubric = item.verdict?.rubric ?? { sameTask: true, informationPreserved: 0, solvable: 0, confidence: 3, otherProblem: false };
  $('progress').textContent = `${message.index + 1}/${message.total}`;
  $('decided').textContent = `${message.decided} decided`;
  $('item-id').textContent = item.id;
  $('status').textContent = item.verdict ? `your verdict: ${item.verdict.verdict}` : 'no verdict yet';
  const original = $('original');
  const transformed = $('transformed');
  original.replaceChildren();
  transformed.replaceChildren();
  for (const part of item.diff) {
    if (part.kind !== 'added') original.append(part.kind === 'removed' ? el('del', part.text) : document.createTextNode(part.text));
    if (part.kind !== 'removed') transformed.append(part.kind === 'added' ? el('ins', part.text) : document.createTextNode(part.text));
  }
  ($('editor') as HTMLTextAreaElement).value = item.transformed;
  $('editor').hidden = true;
  transformed.hidden = false;
  const checklist = $('checklist');
  checklist.replaceChildren();
  for (const entry of item.checklist) {
    const li = el('li', undefined, `check ${entry.status}`);
    li.append(el('span', entry.status, 'badge'), el('span', ` ${entry.element}`), el('span', entry.note ? ` — ${entry.note}` : '', 'note'));
    checklist.append(li);
  }
  for (const addition of item.additions) checklist.append(el('li', `added: ${addition}`, 'check contradicted'));
  if (checklist.childElementCount === 0) checklist.append(el('li', 'no verifier findings', 'check'));
  ($('note') as HTMLTextAreaElement).value = item.verdict?.note ?? '';
  $('hint').textContent = '';
  renderRubric();
}

function renderRubric(): void {
  $('same-task').textContent = rubric.sameTask ? 'yes' : 'no';
  $('information').textContent = String(rubric.informationPreserved);
  $('solvable').textContent = String(rubric.solvable);
  $('confidence').textContent = String(rubric.confidence);
  $('other').textContent = rubric.otherProblem ? 'yes' : 'no';
}

function decide(verdict: 'accept' | 'reject'): void {
  if (!current) return;
  const note = ($('note') as HTMLTextAreaElement).value.trim();
  if (verdict === 'reject' && note === '') {
    $('hint').textContent = 'A rejection needs a note: write it, then press Ctrl+Enter.';
    $('note').focus();
    return;
  }
  const corrected = editing || ($('editor') as HTMLTextAreaElement).value !== current.item.transformed ? ($('editor') as HTMLTextAreaElement).value : null;
  vscode.postMessage({ type: 'decide', index: current.index, verdict, rubric, note, corrected, startedAt, timeSpentMs: Date.now() - shownAt });
}

function go(delta: number): void {
  if (!current) return;
  const index = Math.min(current.total - 1, Math.max(0, current.index + delta));
  if (index !== current.index) vscode.postMessage({ type: 'go', index });
}

document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  const typing = target.tagName === 'TEXTAREA' || target.tagName === 'INPUT';
  if (typing) {
    if (event.key === 'Enter' && event.ctrlKey) {
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
    e: () => {
      editing = true;
      $('transformed').hidden = true;
      $('editor').hidden = false;
      $('editor').focus();
    },
    t: () => ((rubric.sameTask = !rubric.sameTask), renderRubric()),
    i: () => ((rubric.informationPreserved = (rubric.informationPreserved + 1) % 4), renderRubric()),
    s: () => ((rubric.solvable = (rubric.solvable + 1) % 4), renderRubric()),
    c: () => ((rubric.confidence = (rubric.confidence % 5) + 1), renderRubric()),
    o: () => ((rubric.otherProblem = !rubric.otherProblem), renderRubric()),
  };
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
});

vscode.postMessage({ type: 'ready' });
