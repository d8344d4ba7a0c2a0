/**
 * Configuration files, parsed by format: keys never change; values change only where they
 * name the repository's modules, packages, paths or entry points (`--cov=pkg`,
 * `version = attr: pkg.__version__`, `console_scripts = x = pkg.cli:main`, `testpaths = pkg`).
 * Comments are prose.
 */
import type { ProseTranslator } from './prose';
import type { NameRules } from './rules';

export type ConfigKind = 'ini' | 'toml' | 'manifest' | 'requirements';

export function configKind(path: string): ConfigKind | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (base === 'manifest.in') return 'manifest';
  if (/^requirements.*\.(txt|in)$/.test(base) || base === 'constraints.txt') return 'requirements';
  if (base.endsWith('.toml')) return 'toml';
  if (base.endsWith('.cfg') || base.endsWith('.ini') || base === '.coveragerc' || base === '.pylintrc' || base === '.flake8') return 'ini';
  return undefined;
}

export function translateConfig(kind: ConfigKind, text: string, prose: ProseTranslator, rules: NameRules): string {
  const value = (v: string) => configValue(v, prose, rules);
  const lines = text.split(/(?<=\n)/);
  let inMultilineString = false;
  let section = '';
  return lines
    .map((line) => {
      const body = line.replace(/\r?\n$/, '');
      const eol = line.slice(body.length);
      const trimmed = body.trimStart();
      if (trimmed === '') return line;
      if (kind === 'toml' && inMultilineString) {
        if (/"""|'''/.test(body)) inMultilineString = false;
        return value(body) + eol;
      }
      if (trimmed.startsWith('#') || (kind === 'ini' && trimmed.startsWith(';'))) return prose.translate(body) + eol;
      if (trimmed.startsWith('[')) {
        section = trimmed.replace(/^\[+\s*|\s*\]+.*$/g, '');
        return line;
      }
      if (declaresLookedUpDistribution(kind, section, body, rules)) return line;
      if (kind === 'manifest') {
        const m = /^(\s*\S+)(.*)$/.exec(body)!;
        return m[1] + value(m[2]) + eol;
      }
      if (kind === 'toml') {
        const m = /^(\s*[\w.\-"' ]+?\s*=)(.*)$/.exec(body);
        const rest = m ? m[2] : body;
        const head = m ? m[1] : '';
        if ((rest.match(/"""|'''/g) ?? []).length % 2 === 1) inMultilineString = true;
        return head + tomlValue(rest, value, prose) + eol;
      }
      // INI: `key = value` / `key: value` at the start of a line; indented lines continue a
      // value (an entry point `name = pkg.mod:func` is a value). Keys stay, except a dotted key
      // that names the repository's package (an entry-point group `pkg.plugins`).
      const m = /^(\s*)([^=:]+?)(\s*[=:])(.*)$/.exec(body);
      if (body === trimmed) {
        if (m) return keyOf(m[2], rules, prose) + m[3] + value(m[4]) + eol;
        return line;
      }
      if (m && !m[2].includes(' ')) return m[1] + value(m[2]) + m[3] + value(m[4]) + eol;
      return value(body) + eol;
    })
    .join('');
}

/** The section and key that name the distribution a project builds. */
const DISTRIBUTION_KEYS: Record<string, string> = { 'toml:project': 'name', 'toml:tool.poetry': 'name', 'ini:metadata': 'name' };

/**
 * `name = "pkg"` of `[project]` (`[metadata]` in setup.cfg), where the repository looks that
 * distribution up by its name (`importlib.metadata.version("pkg")`): installed from the original,
 * its metadata spells it so, and the lookup keeps that spelling (string-roles.ts).
 */
function declaresLookedUpDistribution(kind: ConfigKind, section: string, body: string, rules: NameRules): boolean {
  const key = DISTRIBUTION_KEYS[`${kind}:${section}`];
  if (key === undefined) return false;
  const m = /^\s*([\w.-]+)\s*[=:]\s*(['"]?)([^'"#;]*)\2\s*(?:[#;].*)?$/.exec(body);
  return m !== null && m[1] === key && rules.isLookedUpDistribution(m[3]);
}

function keyOf(key: string, rules: NameRules, prose: ProseTranslator): string {
  return key.includes('.') && rules.isInternalTop(key.trim().split('.')[0]) ? prose.translate(key, { config: true }) : key;
}

/** Strings and bare words of a TOML value; a trailing comment is prose. */
function tomlValue(rest: string, value: (v: string) => string, prose: ProseTranslator): string {
  let out = '';
  let i = 0;
  while (i < rest.length) {
    const c = rest[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < rest.length && rest[j] !== c) j += rest[j] === '\\' && c === '"' ? 2 : 1;
      out += c + value(rest.slice(i + 1, j)) + (j < rest.length ? c : '');
      i = j + 1;
      continue;
    }
    if (c === '#') {
      out += prose.translate(rest.slice(i));
      break;
    }
    out += c;
    i++;
  }
  return out;
}

function configValue(text: string, prose: ProseTranslator, rules: NameRules): string {
  // Entry points: `pkg.mod:func`.
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*):([\p{L}_][\p{L}\p{N}_]*)/gu)) {
    if (!rules.isInternalTop(m[1].split('.')[0])) continue;
    out += prose.translate(text.slice(last, m.index), { config: true }) + `${prose.translate(m[1], { config: true })}:${rules.memberView(m[2])}`;
    last = m.index! + m[0].length;
  }
  return out + prose.translate(text.slice(last), { config: true });
}
