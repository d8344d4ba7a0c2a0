/**
 * The Python interpreter of each view (core/workflow/solve/python.ts): found once per working
 * copy, instance choice and `schrodinger.python` (trying candidates may run pytest's collection
 * for a few seconds), put first on its terminal's PATH, described, and chosen for an instance.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chooseInterpreter, commandOf, instanceSuite, probeInterpreter, writeShims, type ChosenInterpreter } from '../core/workflow/solve/python';
import type { InstanceRecords } from './instance-records';
import type { Log } from './log';
import type { OpenView } from './views';

export class Interpreters {
  private readonly finding = new Map<string, Promise<ChosenInterpreter | Error>>();
  private readonly found = new Map<string, ChosenInterpreter | Error>();

  constructor(private readonly records: InstanceRecords) {}

  /** The interpreter of the view's instance (or of `schrodinger.python` for a plain view), an Error when none runs. */
  of(view: OpenView): Promise<ChosenInterpreter | Error> {
    const key = this.keyOf(view);
    let chosen = this.finding.get(key);
    if (!chosen) {
      const instance = this.records.of(view);
      const suite = instance ? instanceSuite(instance) : undefined;
      chosen = chooseInterpreter({ instance: instance?.python, setting: pythonSetting(), testCmd: instance?.testCmd, suiteModules: suite?.modules, suite: suite?.suite, searchPath: process.env.PATH ?? '' })
        .catch((error: Error) => error)
        .then((found) => (this.found.set(key, found), found));
      this.finding.set(key, chosen);
    }
    return chosen;
  }

  /** The interpreter when it is known already; undefined while it is being found. */
  known(view: OpenView): ChosenInterpreter | Error | undefined {
    return this.found.get(this.keyOf(view));
  }

  /**
   * PATH for the view's terminal: the interpreter's `python`/`python3` first (links kept beside the
   * view's bundle: never in an instance's records folder, which PATH would show).
   */
  terminalPath(view: OpenView, chosen: ChosenInterpreter | Error): string | undefined {
    if (chosen instanceof Error) return undefined;
    const folder = path.join(path.dirname(view.record.bundleFile), 'bin', view.record.id);
    const shims = writeShims(folder, commandOf(chosen));
    return `${shims}${path.delimiter}${process.env.PATH ?? ''}`;
  }

  private keyOf(view: OpenView): string {
    return `${view.record.repository}\0${this.records.of(view)?.python ?? ''}\0${pythonSetting()}`;
  }
}

function pythonSetting(): string {
  return vscode.workspace.getConfiguration('schrodinger').get<string>('python', '');
}

export function describeInterpreter(chosen: ChosenInterpreter): string {
  const why = { instance: 'chosen for this instance', setting: 'schrodinger.python', test_cmd: "the instance's test command", default: 'found first' }[chosen.source];
  const notes = [
    why,
    ...(chosen.missing.length > 0 ? [`cannot import ${chosen.missing.join(', ')}`] : []),
    ...(chosen.runsSuite === true ? ["runs the instance's tests"] : chosen.runsSuite === false ? ["its pytest does not collect the instance's tests"] : []),
  ];
  return `python3 is ${chosen.executable} (Python ${chosen.version}; ${notes.join(', ')})`;
}

/** Select Python Interpreter: one of the interpreters found, or a path, kept in the instance's record; whether one was chosen. */
export async function selectPython(view: OpenView | undefined, records: InstanceRecords, interpreters: Interpreters, log: Log): Promise<boolean> {
  const instance = records.forCommand(view, 'open an instance being solved first (for other views, set schrodinger.python).');
  if (!view || !instance) return false;
  const current = await interpreters.of(view);
  const { modules } = instanceSuite(instance);
  const items: Array<vscode.QuickPickItem & { value?: string }> = [];
  for (const candidate of ['/usr/bin/python3', 'python3', 'python']) {
    const found = probeInterpreter(candidate, process.env.PATH ?? '', ['pytest', ...modules]);
    if (found && !items.some((i) => i.value === found.executable)) {
      const missing = found.missing.length > 0 ? `cannot import ${found.missing.join(', ')}` : 'imports what the tests need';
      items.push({ label: found.executable, description: `Python ${found.version}; ${missing}`, value: found.executable, picked: !(current instanceof Error) && current.executable === found.executable });
    }
  }
  items.push({ label: 'Enter a path...', alwaysShow: true });
  const picked = await vscode.window.showQuickPick(items, { title: 'Schrödinger: the Python interpreter of this instance', placeHolder: current instanceof Error ? current.message : describeInterpreter(current) });
  if (!picked) return false;
  const value = picked.value ?? (await vscode.window.showInputBox({ title: 'Path of a Python interpreter', validateInput: (v) => (path.isAbsolute(v) ? undefined : 'an absolute path') }));
  if (!value) return false;
  if (!probeInterpreter(value, process.env.PATH ?? '')) {
    void vscode.window.showErrorMessage(`Schrödinger: the Python interpreter ${value} does not run.`);
    return false;
  }
  records.update(view, { python: value });
  log.info(`python interpreter for this instance set to ${value}`);
  void vscode.window.showInformationMessage('Schrödinger: new terminals use this interpreter.');
  return true;
}
