/**
 * One `kubesim up` per state folder: the folder holding the kubeconfig and the logs gets a
 * lock file with the owner's pid. A second `up` for the same folder refuses and says what to
 * do, rather than silently taking over the first cluster's kubeconfig and logs. A lock left
 * by a process that is gone (kill -9, a crash) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export class StateFolderInUse extends Error {}

/** lockStateFolder takes the lock of the folder holding `kubeconfig`; returns what releases it. */
export function lockStateFolder(kubeconfig: string): () => void {
  const folder = dirname(kubeconfig);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, 'up.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (isAlive(owner)) {
        throw new StateFolderInUse(
          `another kubesim up (pid ${owner}) is running with its kubeconfig in ${folder}. ` +
            'Stop it with `npx kubesim down`, or start a second cluster with its own folder and port: ' +
            `\`npx kubesim up --kubeconfig ${join(`${folder}-2`, 'kubeconfig')} --port 6444\``,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot take the lock ${file}: remove it if no kubesim up is running`);
}

/** isAlive: a process with this pid exists (a reused pid counts as alive: the safe side). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
