import * as fs from 'node:fs';
import { UsageError } from '../common/errors';
import { jsonErrorLine } from '../common/json-error-line';

/**
 * Reads a list of instance ids (gold items): a JSON array of ids or of objects with
 * `instance_id`, JSON Lines of such objects, or plain text with one id a line (`#` comments).
 */
export function readIdList(file: string): string[] {
  if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const idOf = (value: unknown, where: string): string => {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (value && typeof value === 'object' && typeof (value as { instance_id?: unknown }).instance_id === 'string') {
      return (value as { instance_id: string }).instance_id;
    }
    throw new UsageError(`${where}: expected an instance id or an object with instance_id`);
  };
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let whole: unknown;
    try {
      whole = JSON.parse(text);
    } catch (error) {
      if (trimmed.startsWith('[')) {
        const line = jsonErrorLine(text);
        throw new UsageError(`${file}${line ? `:${line}` : ''}: malformed JSON: ${(error as Error).message}`);
      }
      // JSON Lines
      return text.split('\n').flatMap((raw, i) => {
        if (raw.trim() === '') return [];
        try {
          return [idOf(JSON.parse(raw), `${file}:${i + 1}`)];
        } catch (e) {
          if (e instanceof UsageError) throw e;
          throw new UsageError(`${file}:${i + 1}: malformed JSON line`);
        }
      });
    }
    if (Array.isArray(whole)) return whole.map((v, i) => idOf(v, `${file}: item ${i + 1}`));
    return [idOf(whole, file)];
  }
  return trimmed.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}
