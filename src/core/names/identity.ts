/**
 * Who the repository is, as its own files say: the owner in the URLs of its hosted repository
 * (`https://github.com/OWNER/NAME`, where NAME is one of its own packages, with or without a
 * `python-`/`py` affix) and the people its metadata names: `author`/`maintainer` in setup.py,
 * setup.cfg and pyproject.toml (`authors = [{ name = "..." }]` too), `__author__`/
 * `__maintainer__` in Python files, and the holder of a `Copyright` line of the LICENSE or COPYING
 * file at its root. A famous project is recognised by
 * these as surely as by its names.
 *
 * The result is the words of those names (letters only, three or more, lowercase; an owner's
 * handle of letters and digits whole, `r1chardj0n3s`) that are not
 * English (the policy: English stays; the list's proper nouns too, so `Quincy` stays), no word
 * that names no one (`and`, `Ltd`) and not already the repository's own packages: the Level 2
 * build renames each of them in every text, in any of its usual casings (rules.ts).
 */
import type { RepoFile } from '../repository/repository';
import { isEnglishWord } from './english';

const HOSTED = /\b(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:]([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9_.-]+)/g;
const PYTHON_AUTHOR = /^__(?:author|maintainer)__\s*=\s*(['"])(.*?)\1/gm;
const SETUP_AUTHOR = /\b(?:author|maintainer)\s*=\s*(['"])(.*?)\1/g;
const CONFIG_AUTHOR = /^(?:author|maintainer)\s*[=:]\s*(.+)$/gm;
const TOML_PEOPLE = /^(?:authors|maintainers)\s*=\s*\[([\s\S]*?)\]/gm;
const TOML_NAME = /\bname\s*=\s*(['"])(.*?)\1/g;
// A holder after `(c)`, `©` or a year (`Copyright notice and ...` is no holder).
const COPYRIGHT = /^\s*Copyright\s+(?:(?:\([cC]\)|©)\s*(?:\d{4}(?:\s*[-–,]\s*\d{4})*\s*,?\s*)?|\d{4}(?:\s*[-–,]\s*\d{4})*\s*,?\s*)(?:by\s+)?(.+)$/gm;

/** Words a name line holds that name no one (the English list has lemmas, not these). */
const NOT_A_NAME = new Set(['and', 'the', 'this', 'that', 'all', 'any', 'its', 'his', 'her', 'their', 'for', 'with', 'from', 'ltd', 'llc', 'gmbh', 'org', 'com', 'www', 'http', 'https', 'mailto', 'dev', 'devs', 'labs', 'contrib', 'oss']);

/** The text a person's or owner's name is written in, split into its words. */
function nameWords(text: string): string[] {
  return (text.match(/[A-Za-z]+/g) ?? []).map((w) => w.toLowerCase());
}

/** The words that say who the repository is (see the module comment), sorted. */
export function identityWords(repository: { files: ReadonlyArray<Pick<RepoFile, 'path' | 'text'>> }, ownPackages: readonly string[]): string[] {
  const own = new Set(ownPackages.map((p) => p.toLowerCase()));
  const names: string[] = [];
  const handles = new Set<string>();
  const handleParts: string[] = [];
  for (const file of repository.files) {
    const text = file.text;
    if (text === undefined) continue;
    for (const m of text.matchAll(HOSTED)) {
      // The repository itself (`boltons`, `python-pathspec`, `pytest-cov` for `pytest_cov`), not another project built on it.
      const repo = m[2].replace(/\.+$/, '').replace(/\.git$/, '').toLowerCase().replace(/^(python|py)[-_]?|[-_.](python|py)$/g, '').replace(/-/g, '_');
      if (!own.has(repo)) continue;
      // A handle of letters and digits (`r1chardj0n3s`) is one word; one with hyphens (`marshmallow-code`), its longer words.
      if (/[0-9]/.test(m[1]) && /^[A-Za-z0-9]+$/.test(m[1])) handles.add(m[1].toLowerCase());
      else if (m[1].includes('-')) handleParts.push(...nameWords(m[1]).filter((w) => w.length >= 4));
      else names.push(m[1]);
    }
    const base = file.path.slice(file.path.lastIndexOf('/') + 1);
    if (/\.pyi?$/.test(base)) for (const m of text.matchAll(PYTHON_AUTHOR)) names.push(m[2]);
    if (base === 'setup.py') for (const m of text.matchAll(SETUP_AUTHOR)) names.push(m[2]);
    if (base === 'setup.cfg') for (const m of text.matchAll(CONFIG_AUTHOR)) names.push(m[1]);
    if (base === 'pyproject.toml') for (const people of text.matchAll(TOML_PEOPLE)) for (const m of people[1].matchAll(TOML_NAME)) names.push(m[2]);
    // The repository's own licence (at its root), not a vendored library's.
    if (!file.path.includes('/') && /^(LICEN[CS]E|COPYING)(\.\w+)?$/i.test(base)) for (const m of text.matchAll(COPYRIGHT)) names.push(m[1]);
  }
  const words = new Set<string>([...handles].filter((h) => /^[a-z]/.test(h)));
  for (const name of [...names, ...handleParts]) {
    for (const word of nameWords(name)) if (word.length >= 3 && !own.has(word) && !NOT_A_NAME.has(word) && !isEnglishWord(word)) words.add(word);
  }
  return [...words].sort();
}
