import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../core/common/errors';
import { resolveCommit, sourceGitDir } from '../core/workflow/checkout';
import type { Instance } from '../core/workflow/instances';

/** The clone of an instance's repository in `--repos DIR`: NAME.git, NAME, OWNER__NAME.git or OWNER__NAME. */
export function cloneIn(folder: string, repo: string): string | undefined {
  const [owner, name] = repo.split('/');
  if (!owner || !name || repo.split('/').length !== 2 || [owner, name].some((part) => part === '.' || part === '..')) return undefined;
  for (const candidate of [`${name}.git`, name, `${owner}__${name}.git`, `${owner}__${name}`]) {
    const full = path.join(folder, candidate);
    if (fs.existsSync(full) && fs.statSync(full).isDirectory()) return full;
  }
  return undefined;
}

/** `--repos DIR` or `--repo PATH`: each instance's clone, its base commit checked, before any work; one line naming what is missing. */
export function instanceClones(instances: readonly Instance[], choice: { repos?: string; repo?: string }): Map<string, string> {
  if ((choice.repos === undefined) === (choice.repo === undefined)) throw new UsageError('give --repos DIR (a clone per repository) or --repo PATH (one clone for every instance)');
  const clones = new Map<string, string>();
  for (const instance of instances) {
    const clone = choice.repo ?? cloneIn(choice.repos!, instance.repo);
    if (clone === undefined) throw new UsageError(`no clone of ${instance.repo} in ${choice.repos} (looked for ${instance.repo.split('/')[1]}.git, ${instance.repo.split('/')[1]}, ${instance.repo.replace('/', '__')}.git and ${instance.repo.replace('/', '__')})`);
    resolveCommit(sourceGitDir(clone), instance.base_commit, clone);
    clones.set(instance.instance_id, clone);
  }
  return clones;
}
