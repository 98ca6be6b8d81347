/**
 * What a compatibility check gets to work with: one kubectl binary bound to its own
 * namespaces of a shared `kubesim up` cluster, output normalisation for that namespace, and
 * a plain HTTP client for setting up state (and repairing it after a failed command, so one
 * missing feature does not fail every later row).
 */
import { stringify } from 'yaml';
import { type JsonResponse, request } from '../../support/http.js';
import { type KubectlBinary, type KubectlResult, type KubectlWatch, runKubectl, startKubectlWatch } from '../../support/kubectl.js';
import { CheckFailure, firstLine, normalise, withoutKlog } from './normalize.js';

/** Options for one kubectl call. */
export interface CallOptions {
  stdin?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Run in this namespace instead of the context's main one. */
  namespace?: string;
}

/** The cluster's API over plain HTTP (JSON bodies). */
export interface Api {
  get(path: string): Promise<JsonResponse>;
  /** POSTs `body` to `path`; an existing object (409) counts as success. */
  create(path: string, body: object): Promise<void>;
  patch(path: string, body: unknown, contentType?: string): Promise<JsonResponse>;
  delete(path: string): Promise<JsonResponse>;
}

/** CompatContext is one kubectl binary's run of the check list. */
export interface CompatContext {
  /** The main namespace of this run; `<ns>` after normalisation. */
  ns: string;
  /** A second namespace for the deletion checks (`<ns>-del`). */
  delNs: string;
  /** The minor version of the kubectl that actually runs (after a dispatcher). */
  minor: number;
  api: Api;
  /** Runs `kubectl -n <ns> <args>`; never throws for a non-zero exit. */
  kubectl(args: string[], options?: CallOptions): Promise<KubectlResult>;
  /** Like kubectl, but a non-zero exit fails the check with kubectl's first error line. */
  ok(args: string[], options?: CallOptions): Promise<KubectlResult>;
  /** Like ok, returning normalised stdout. */
  out(args: string[], options?: CallOptions): Promise<string>;
  /** Starts `kubectl -n <ns> <args>` in the background (get -w). */
  watch(args: string[], options?: CallOptions): KubectlWatch;
  /** The normalisation for this context's namespaces. */
  normalise(text: string): string;
}

/** Deployments whose ReplicaSets and pods the suite creates (their suffixes are normalised). */
export const DEPLOYMENTS = ['web', 'api', 'bg', 'fg', 'orphan'] as const;

/** Everything needed to build a context. */
export interface ContextOptions {
  binary: KubectlBinary;
  minor: number;
  ns: string;
  serverUrl: string;
  kubeconfigPath: string;
  cacheDir: string;
}

/** createContext binds a binary to its namespaces. */
export function createContext(options: ContextOptions): CompatContext {
  const { binary, ns, serverUrl } = options;
  const delNs = `${ns}-del`;
  const kubectlOptions = (extra: CallOptions = {}) => ({
    kubeconfigPath: options.kubeconfigPath,
    cacheDir: options.cacheDir,
    stdin: extra.stdin,
    env: extra.env,
    timeoutMs: extra.timeoutMs ?? 30_000,
  });
  const withNamespace = (args: string[], extra: CallOptions = {}) => ['-n', extra.namespace ?? ns, ...args];
  // `<ns>-del` and `<ns>-gen` come out of the same replacement (`-` ends a word).
  const normaliseHere = (text: string) => normalise(text, { namespace: ns, deployments: DEPLOYMENTS });
  const kubectl = (args: string[], extra?: CallOptions) => runKubectl(binary, withNamespace(args, extra), kubectlOptions(extra));
  const ok = async (args: string[], extra?: CallOptions) => {
    const result = await kubectl(args, extra);
    if (result.timedOut) throw new CheckFailure(`kubectl ${args[0]} did not finish`);
    if (result.code !== 0) throw new CheckFailure(normaliseHere(firstLine(withoutKlog(result.stderr) || result.stdout) || `exit ${result.code}`));
    return result;
  };
  return {
    ns,
    delNs,
    minor: options.minor,
    api: httpApi(serverUrl),
    kubectl,
    ok,
    out: async (args, extra) => normaliseHere((await ok(args, extra)).stdout),
    watch: (args, extra) => startKubectlWatch(binary, withNamespace(args, extra), kubectlOptions(extra)),
    normalise: normaliseHere,
  };
}

function httpApi(serverUrl: string): Api {
  const call = (path: string, init: Parameters<typeof request>[1]) => request(`${serverUrl}${path}`, init);
  return {
    get: (path) => call(path, {}),
    async create(path, body) {
      const res = await call(path, { method: 'POST', body });
      if (res.status !== 201 && res.status !== 200 && res.status !== 409) {
        throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    },
    patch: (path, body, contentType = 'application/merge-patch+json') => call(path, { method: 'PATCH', body, contentType }),
    delete: (path) => call(path, { method: 'DELETE' }),
  };
}

/** yaml renders manifests for kubectl's stdin, as `---`-separated documents. */
export function yaml(...objects: object[]): string {
  return objects.map((object) => stringify(object)).join('---\n');
}

/** deployment is a Deployment of one nginx container selecting `app: <name>` — what
 * `kubectl create deployment <name> --image=<image> --replicas=<n>` makes, plus options. */
export function deployment(
  name: string,
  namespace: string,
  {
    replicas = 2,
    image = 'nginx:1.25',
    ports = false,
    generated = false,
  }: {
    replicas?: number;
    image?: string;
    ports?: boolean;
    /** Add what kubectl's generator sends besides (`resources: {}`, as Go clients do). */
    generated?: boolean;
  } = {},
): object {
  const container: Record<string, unknown> = { name: 'nginx', image };
  if (ports) container['ports'] = [{ containerPort: 80 }];
  if (generated) container['resources'] = {};
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container] } },
    },
  };
}

/** configMap is a ConfigMap with the given data and labels. */
export function configMap(name: string, namespace: string, data: Record<string, string>, labels?: Record<string, string>): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...(labels ? { labels } : {}) }, data };
}

/** Collection paths for the API helper. */
export const paths = {
  namespaces: '/api/v1/namespaces',
  configMaps: (ns: string) => `/api/v1/namespaces/${ns}/configmaps`,
  services: (ns: string) => `/api/v1/namespaces/${ns}/services`,
  deployments: (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments`,
};

/** One row of the compatibility matrix: a kubectl command (or a short sequence) whose output
 * is compared with a real cluster's. */
export interface Check {
  /** The row name, e.g. `get -o wide`. */
  name: string;
  /** Throws CheckFailure (or any error) when kubectl fails or prints something else. */
  run(c: CompatContext): Promise<void>;
  /** After a failed run: puts in place, over plain HTTP, what later checks rely on. */
  repair?(c: CompatContext): Promise<void>;
}

const PROGRESS = /^(Waiting for deployment "[a-z-]+" rollout to finish: .+\.\.\.|Waiting for deployment spec update to be observed\.\.\.)$/;

/** rolledOut runs `rollout status deployment/<name>` and fails unless it ends with
 * `successfully rolled out` after progress lines only. */
export async function rolledOut(c: CompatContext, name: string, options: CallOptions = {}): Promise<void> {
  const { stdout } = await c.ok(['rollout', 'status', `deployment/${name}`, '--timeout=60s'], { timeoutMs: 65_000, ...options });
  const lines = stdout.trimEnd().split('\n');
  const done = `deployment "${name}" successfully rolled out`;
  if (lines.at(-1) !== done) throw new CheckFailure(`rollout status ended with "${firstLine(lines.at(-1) ?? '')}"`);
  const odd = lines.slice(0, -1).find((line) => !PROGRESS.test(line));
  if (odd !== undefined) throw new CheckFailure(`rollout status printed "${firstLine(odd)}"`);
}
