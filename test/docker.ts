import { spawnSync } from 'node:child_process';

/** The image the Docker runner's tests run in (scripts/docker-test-image.sh builds it from nothing). */
export const TEST_IMAGE = process.env.SCHRODINGER_TEST_IMAGE ?? 'schrodinger-test:bookworm';

/** The engine must answer and hold the test image: a missing one fails the test (skipped is not passed). */
export function requireTestImage(): string {
  const version = spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error('no Docker engine answers: run scripts/docker-test-image.sh (installs docker.io, starts dockerd, builds the test image)');
  if (spawnSync('docker', ['image', 'inspect', TEST_IMAGE], { stdio: 'ignore' }).status !== 0) throw new Error(`no Docker image ${TEST_IMAGE}: run scripts/docker-test-image.sh`);
  return TEST_IMAGE;
}

/** The ids of the containers (running or not) labelled with process `pid`. */
export function containersOf(pid: number): string[] {
  const listed = spawnSync('docker', ['ps', '-aq', '--filter', `label=schrodinger.pid=${pid}`], { encoding: 'utf8' });
  return listed.stdout.split('\n').filter((line) => line.trim() !== '');
}
