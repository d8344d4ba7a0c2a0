/**
 * The interface levels of a bundle as one translator: what a person or an agent sees of the
 * repository's files, paths and of free text, and the way back. Level 2 (names) is the only
 * interface level that changes files; without it every method is the identity.
 */
import type { Bundle } from './bundle';
import { loadExternalNames } from '../names/external-names';
import type { ProseOptions } from '../names/prose';
import { NamesTranslator } from '../names/translator';

export class Translator {
  readonly names: NamesTranslator | undefined;

  constructor(bundle: Bundle) {
    this.names = bundle.names ? new NamesTranslator(bundle.names, loadExternalNames()) : undefined;
  }

  /** A repository file (relative POSIX path, decoded text) as the view shows it. */
  fileToView(path: string, text: string): string {
    return this.names ? this.names.fileToView(path, text) : text;
  }

  /** Text written in the view (a file, a command, a patch) in real names. */
  toReal(text: string): string {
    return this.names ? this.names.toReal(text) : text;
  }

  /** Free text (problem statement, command output, traceback, diff) as the view shows it. */
  textToView(text: string, options?: ProseOptions): string {
    return this.names ? this.names.textToView(text, options) : text;
  }

  pathToView(relative: string): string {
    return this.names ? this.names.pathToView(relative) : relative;
  }

  pathToReal(relative: string): string {
    return this.names ? this.names.pathToReal(relative) : relative;
  }

  /** One path segment (a folder entry's name). */
  segmentToView(segment: string): string {
    return this.names ? this.names.segmentToView(segment) : segment;
  }
}

export function translatorFor(bundle: Bundle): Translator {
  return new Translator(bundle);
}
