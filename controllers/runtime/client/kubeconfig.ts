/**
 * Reads the kubeconfig `kubesim up` writes (cli/kubeconfig.ts) — or any kubeconfig whose
 * current context uses a plain server URL and, optionally, a bearer token — and resolves the
 * current context into what a component needs to reach the API server.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/** KubeconfigTarget is the current context, resolved: where to connect and as whom. */
export interface KubeconfigTarget {
  server: string;
  token?: string;
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
  const token = userToken(config, context['user']);
  return token === undefined ? { server, namespace } : { server, token, namespace };
}

function userToken(config: Record<string, unknown>, userName: unknown): string | undefined {
  if (typeof userName !== 'string' || userName === '') return undefined;
  const entry = asArray(config['users'])
    .map(asRecord)
    .find((u) => u['name'] === userName);
  const token = entry ? asRecord(entry['user'])['token'] : undefined;
  return typeof token === 'string' && token !== '' ? token : undefined;
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
