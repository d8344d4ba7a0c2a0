import * as vscode from 'vscode';
import { parseSeed } from '../core/common/user-values';

/** Asks for a seed (a random one proposed); undefined when the person cancels. */
export async function askSeed(title: string, prompt?: string): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    value: String(Math.floor(Math.random() * 1_000_000)),
    validateInput: (value) => {
      try {
        parseSeed(value);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
  });
  return text === undefined ? undefined : parseSeed(text);
}
