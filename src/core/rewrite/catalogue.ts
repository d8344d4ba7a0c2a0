/**
 * The vocabulary of the offline rewriter: a transformation finds the sites in one function where
 * it applies and says, for each, the text edits that apply it. Every site is found on the syntax
 * tree with the preconditions under which the edit preserves behaviour (each transformation's
 * comment states them); a site is never a guess.
 */
import type { Node } from 'web-tree-sitter';
import type { FunctionScope } from './scope';
import type { ModuleSource } from './classes';

export type TransformationKind =
  | 'early-return-to-else'
  | 'else-to-early-return'
  | 'guard-clause'
  | 'invert-if'
  | 'merge-nested-if'
  | 'split-and-condition'
  | 'elif-to-else-if'
  | 'else-if-to-elif'
  | 'de-morgan-distribute'
  | 'de-morgan-factor'
  | 'if-to-conditional'
  | 'conditional-to-if'
  | 'get-to-membership'
  | 'membership-to-get'
  | 'loop-to-comprehension'
  | 'comprehension-to-loop'
  | 'swap-statements'
  | 'none-default-to-conditional'
  | 'conditional-to-none-default'
  | 'dict-call-to-display'
  | 'dict-display-to-call'
  | 'keyword-order'
  | 'move-guard'
  | 'lambda-to-def'
  | 'def-to-lambda'
  | 'range-to-enumerate'
  | 'enumerate-to-range'
  | 'concatenation-to-fstring'
  | 'fstring-to-concatenation'
  | 'rename-local';

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface Site {
  kind: TransformationKind;
  /** The stretch of text the site reads and rewrites: the sites applied together are disjoint. */
  start: number;
  end: number;
  edits: Edit[];
  /** What a record shows besides the kind and place (a rename's old and new name). */
  detail?: string;
}

/** One function being rewritten, as parsed at the start of a round. */
export interface FunctionContext {
  text: string;
  fn: Node;
  body: Node;
  lineBreak: string;
  /** The indentation one block level adds in this function. */
  unit: string;
  scope: FunctionScope;
  /** The file's path and the repository's modules, when known: classes are then followed through imports (classes.ts). */
  path?: string;
  modules?: ModuleSource;
}

export interface Transformation {
  kind: TransformationKind;
  /** The transformation that undoes this one (itself when it is its own inverse). */
  inverse?: TransformationKind;
  sites(context: FunctionContext): Site[];
}

export function site(kind: TransformationKind, extent: Node, edits: Edit[], detail?: string): Site {
  return { kind, start: extent.startIndex, end: extent.endIndex, edits, ...(detail === undefined ? {} : { detail }) };
}
