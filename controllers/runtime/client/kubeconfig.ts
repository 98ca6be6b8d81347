/**
 * Reads the kubeconfig `kubesim up` writes (cli/kubeconfig.ts) — or any kubeconfig whose
 * current context names a server URL and, optionally, a bearer token, a CA and a client
 * certificate (inline `*-data` or file paths, relative to the kubeconfig's folder) — and
 * resolves the current context into what a component needs to reach the API server.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ClientTls } from './http-transport.js';

/** KubeconfigTarget is the current context, resolved: where to connect and as whom. */
export interface KubeconfigTarget {
  server: string;
  token?: string;
  /** The cluster's CA and the user's client certificate, when the kubeconfig has them. */
  tls?: ClientTls;
  /** The context's namespace, 'default' when unset. */
  namespace: string;
}

/** KubeconfigError says what is wrong with a kubeconfig and what to do about it. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** loadKubeconfig reads the kubeconfig at `path` and resolves its current context. Throws
 * KubeconfigError (never anything else) naming the file and the fix when the file is missing,
 * is not YAML, or its current context, cluster or server cannot be found. */
export function loadKubeconfig(path: string): KubeconfigTarget {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new KubeconfigError(`no kubeconfig at ${path}: start a cluster with \`kubesim up\` or pass --kubeconfig`);
    throw new KubeconfigError(`cannot read kubeconfig ${path}: ${(err as Error).message}`);
  }
  return parseKubeconfig(text, path);
}

/** parseKubeconfig resolves the current context of kubeconfig YAML `text`; `source` names it
 * in errors. Same contract as loadKubeconfig. */
export function parseKubeconfig(text: string, source: string): KubeconfigTarget {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${source} is not valid YAML: ${(err as Error).message}`);
  }
  const config = asRecord(document);
  const contextName = config['current-context'];
  if (typeof contextName !== 'string' || contextName === '') {
    throw new KubeconfigError(`kubeconfig ${source} has no current-context: run \`kubectl config use-context <name>\` or \`kubesim up\``);
  }
  const context = findNamed(config, 'contexts', 'context', contextName, source);
  const clusterName = String(context['cluster'] ?? '');
  const cluster = findNamed(config, 'clusters', 'cluster', clusterName, source);
  const server = cluster['server'];
  if (typeof server !== 'string' || server === '') {
    throw new KubeconfigError(`kubeconfig ${source}: cluster "${clusterName}" has no server URL`);
  }
  const namespace = typeof context['namespace'] === 'string' && context['namespace'] ? context['namespace'] : 'default';
  const user = userEntry(config, context['user']);
  const token = typeof user['token'] === 'string' && user['token'] !== '' ? user['token'] : undefined;
  const tls = clientTls(cluster, user, source);
  return { server, namespace, ...(token === undefined ? {} : { token }), ...(tls ? { tls } : {}) };
}

function userEntry(config: Record<string, unknown>, userName: unknown): Record<string, unknown> {
  if (typeof userName !== 'string' || userName === '') return {};
  const entry = asArray(config['users'])
    .map(asRecord)
    .find((u) => u['name'] === userName);
  return entry ? asRecord(entry['user']) : {};
}

/** clientTls gathers the cluster's CA and the user's certificate and key, if any is set. */
function clientTls(cluster: Record<string, unknown>, user: Record<string, unknown>, source: string): ClientTls | undefined {
  const tls: ClientTls = {
    ca: pemField(cluster, 'certificate-authority', source),
    cert: pemField(user, 'client-certificate', source),
    key: pemField(user, 'client-key', source),
    insecureSkipVerify: cluster['insecure-skip-tls-verify'] === true || undefined,
  };
  for (const field of Object.keys(tls) as Array<keyof ClientTls>) if (tls[field] === undefined) delete tls[field];
  return Object.keys(tls).length > 0 ? tls : undefined;
}

/** pemField reads `<field>-data` (base64 PEM) or `<field>` (a file, relative to the kubeconfig). */
function pemField(entry: Record<string, unknown>, field: string, source: string): string | undefined {
  const inline = entry[`${field}-data`];
  if (typeof inline === 'string' && inline !== '') return Buffer.from(inline, 'base64').toString('utf8');
  const file = entry[field];
  if (typeof file !== 'string' || file === '') return undefined;
  const path = resolve(dirname(source), file);
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${source}: cannot read ${field} ${path}: ${(err as Error).message}`);
  }
}

/** findNamed returns `<field>` of the entry of list `listName` called `name`. */
function findNamed(config: Record<string, unknown>, listName: string, field: string, name: string, source: string): Record<string, unknown> {
  const entries = asArray(config[listName]).map(asRecord);
  const entry = entries.find((e) => e['name'] === name);
  if (!entry) {
    const known = entries.map((e) => String(e['name'])).join(', ') || 'none';
    throw new KubeconfigError(`kubeconfig ${source} has no ${field} named "${name}" (known: ${known}): fix the kubeconfig or run \`kubesim up\` again`);
  }
  return asRecord(entry[field]);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
