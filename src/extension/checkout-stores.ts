import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { defaultCheckoutStore } from '../core/workflow/checkout-store';

/** Where Solve Instance keeps each instance's records (core/workflow/checkout-store.ts): the extension's storage. */
export function extensionCheckoutStore(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'checkouts');
}

/** Where the working copies of Solve Instance go: beside the store, never in it. */
export function extensionWorkingCopies(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'views');
}

/** The stores a working copy's records are looked for in: the extension's, then the CLI's (`schrodinger checkout`). */
export function checkoutStores(context: vscode.ExtensionContext): string[] {
  return [extensionCheckoutStore(context), defaultCheckoutStore(process.env, os.homedir())];
}
