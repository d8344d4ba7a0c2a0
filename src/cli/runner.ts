import { Option, type Command } from 'commander';
import { UsageError } from '../core/common/errors';
import { harnessImageName, type ContainerSpec } from '../core/workflow/docker-runner';

export interface RunnerChoice {
  runner: string;
  image?: string;
}

/** `--runner local|docker` and `--image`: where the tests of the gates run. */
export function addRunnerOptions(command: Command, forInstance: boolean): Command {
  return command
    .addOption(
      new Option('--runner <where>', 'where the tests of the gates run: local (this machine\'s interpreter, unconfined) or docker (a container without network, with memory, CPU and process limits)')
        .choices(['local', 'docker'])
        .default('local'),
    )
    .option('--image <name>', forInstance ? "with --runner docker: the image the tests run in, the repository at /testbed (default: the SWE-bench harness's image of the instance, swebench/sweb.eval.x86_64.<id>)" : 'with --runner docker: the image the tests run in, the repository at /testbed');
}

/** The container of a --runner choice, or undefined for the local runner; `instanceId` names the harness's image when --image is not given. */
export function containerOf(choice: RunnerChoice, instanceId?: string): ContainerSpec | undefined {
  if (choice.runner !== 'docker') {
    if (choice.image !== undefined) throw new UsageError('--image is for --runner docker');
    return undefined;
  }
  if (choice.image !== undefined && choice.image.trim() === '') throw new UsageError('empty --image');
  const image = choice.image?.trim() ?? (instanceId === undefined ? undefined : harnessImageName(instanceId));
  if (image === undefined) throw new UsageError('--runner docker needs --image NAME (the image the tests run in)');
  return { image };
}
