/** `kubesim snapshot save FILE` and `kubesim snapshot restore FILE`: write every object of the
 * running cluster to a JSON file, or make the cluster's objects equal to such a file again
 * (by ordinary writes that every watcher sees; the server checks the file first and restores
 * all of it or nothing). The cluster is the one the kubeconfig names. */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type KubeconfigTarget, loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';

const SNAPSHOT_PATH = '/apis/kubesim.io/v1alpha1/snapshot';

const flags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim snapshot save FILE | kubesim snapshot restore FILE [flags]

  save FILE       write every object of the running cluster to FILE (JSON)
  restore FILE    make the cluster's objects equal to FILE: create, update and delete
                  what differs (watchers see ordinary events; uids are kept)

Flags:
${formatFlagHelp(flags)}`;

interface SavedSnapshot {
  revision: number;
  objects: unknown[];
}

interface RestoreCounts {
  created: number;
  updated: number;
  deleted: number;
  revision: number;
}

export async function snapshot(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(argv, flags);
  if (parsed['help']) return void console.log(usage);
  const [action, file, extra] = positional;
  if ((action !== 'save' && action !== 'restore') || !file || extra !== undefined) throw new UsageError(`name an action and a file\n\n${usage}`);
  const server = loadKubeconfig(resolve(String(parsed['kubeconfig'])));
  const path = resolve(file);
  if (action === 'save') {
    const text = await call(server, 'GET', SNAPSHOT_PATH);
    const saved = JSON.parse(text) as SavedSnapshot;
    // Write beside the target, then rename: an interrupted save never leaves half a file.
    writeFileSync(`${path}.tmp`, text, { mode: 0o600 }); // a snapshot holds Secrets in clear
    renameSync(`${path}.tmp`, path);
    console.log(`saved ${saved.objects.length} objects at revision ${saved.revision} to ${file}`);
    return;
  }
  const body = readSnapshotFile(path, file);
  const counts = JSON.parse(await call(server, 'POST', `${SNAPSHOT_PATH}/restore`, body)) as RestoreCounts;
  console.log(`restored ${file}: ${counts.created} created, ${counts.updated} updated, ${counts.deleted} deleted (now at revision ${counts.revision})`);
}

function readSnapshotFile(path: string, shown: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`cannot read ${shown}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

/** call sends one request to the cluster and returns the response text; a Status error
 * becomes an Error with the server's message (which names the problem). */
async function call(target: KubeconfigTarget, method: string, path: string, body?: Buffer): Promise<string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetchWithTls(`${target.server}${path}`, { method, headers, body, token: target.token, tls: target.tls });
  } catch {
    throw new Error(`cannot reach the cluster at ${target.server}: is \`kubesim up\` running?`);
  }
  const text = await response.text();
  if (response.ok) return text;
  let message = `HTTP ${response.status}`;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {
    // Not a Status: keep the HTTP code.
  }
  throw new Error(message);
}
