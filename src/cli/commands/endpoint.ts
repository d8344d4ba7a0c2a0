import { UsageError } from '../../core/common/errors';
import { API_KEY_VARIABLES } from './level1';

/** An OpenAI-compatible endpoint named by --base-url and --model, its key from API_KEY_VARIABLES (never printed); `missing` says what needs them. */
export function endpointOf(baseUrl: string | undefined, model: string | undefined, env: NodeJS.ProcessEnv, missing: string): { baseURL: string; model: string; apiKey: string } {
  if (baseUrl === undefined || model === undefined) throw new UsageError(missing);
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError('bad --base-url: not a URL');
  }
  if (model.trim() === '') throw new UsageError('empty --model');
  const apiKey = API_KEY_VARIABLES.map((name) => env[name]).find((v) => v !== undefined && v !== '');
  if (apiKey === undefined) throw new UsageError(`no API key: set ${API_KEY_VARIABLES.join(' or ')}`);
  return { baseURL: baseUrl, model, apiKey };
}
