/**
 * Where `kubesim up` keeps a cluster's state without --data-dir: a temporary folder, in memory
 * (/dev/shm) when the machine has one, removed when the cluster stops. A cluster killed with
 * kill -9 cannot remove its own, and /dev/shm is memory: so each folder's name carries its
 * owner's pid, and every start removes the folders whose owner is gone.
 */
import { accessSync, constants, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './state-lock.js';

const PREFIX = 'kubesim-state-';

/** makeScratchState sweeps abandoned state folders and makes this process's own. */
export function makeScratchState(folder = scratchFolder()): string {
  sweepAbandonedState(folder);
  return mkdtempSync(join(folder, `${PREFIX}${process.pid}-`));
}

/** sweepAbandonedState removes the state folders in `folder` whose owner process is gone;
 * returns their names. */
export function sweepAbandonedState(folder: string): string[] {
  const owned = new RegExp(`^${PREFIX}(\\d+)-`);
  const abandoned = readdirSync(folder).filter((name) => {
    const owner = owned.exec(name)?.[1];
    return owner !== undefined && !isAlive(Number(owner));
  });
  for (const name of abandoned) rmSync(join(folder, name), { recursive: true, force: true });
  return abandoned;
}

function scratchFolder(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}
