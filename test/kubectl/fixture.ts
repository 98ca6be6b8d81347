/**
 * Shared setup for the kubectl suite: one test cluster per describe block (one per kubectl
 * binary), a kubectl cache dir reused within it, and small wrappers over runKubectl.
 */

import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import {
  type KubectlBinary,
  type KubectlOptions,
  type KubectlResult,
  type KubectlWatch,
  needsOpenApiV2,
  runKubectl,
  startKubectlWatch,
  stopKubectlWatches,
} from '../support/kubectl.js';
import type { TestCluster } from '../support/test-cluster.js';
import { type UseTestClusterOptions, useTestCluster } from '../support/use-test-cluster.js';

export type CallOptions = Pick<KubectlOptions, 'stdin' | 'env' | 'timeoutMs'>;

export interface KubectlFixture {
  cluster(): TestCluster;
  /** Runs kubectl; never throws for a non-zero exit. */
  run(args: string[], options?: CallOptions): Promise<KubectlResult>;
  /** Runs kubectl and throws (with its output) unless it exits 0. */
  ok(args: string[], options?: CallOptions): Promise<KubectlResult>;
  /** `kubectl get <args> -o json`, parsed. */
  json(args: string[]): Promise<any>;
  /** `kubectl apply -f -` with `yaml` on stdin; throws unless it exits 0. */
  apply(yaml: string): Promise<KubectlResult>;
  watch(args: string[]): KubectlWatch;
}

/** useKubectlCluster starts a cluster in beforeAll (with what `components` adds: controllers,
 * nodes) and stops it (and stray watches) in afterAll. */
export function useKubectlCluster(binary: KubectlBinary, components: Omit<UseTestClusterOptions, 'lifetime'> = {}): KubectlFixture {
  const cluster = useTestCluster({ ...components, lifetime: 'file' });
  const options = (extra: CallOptions = {}): KubectlOptions => ({
    kubeconfigPath: cluster.kubeconfigPath,
    cacheDir: join(cluster.dir, 'kubectl-cache'),
    ...extra,
  });
  afterEach(async () => {
    await stopKubectlWatches();
  });
  afterAll(async () => {
    await stopKubectlWatches();
  });
  const run = (args: string[], extra?: CallOptions) => runKubectl(binary, withValidation(binary, args), options(extra));
  const ok = async (args: string[], extra?: CallOptions) => {
    const result = await run(args, extra);
    if (result.code !== 0) {
      throw new Error(`kubectl ${args.join(' ')} exited ${result.code ?? result.signal}\n${result.stdout}${result.stderr}`);
    }
    return result;
  };
  return {
    cluster: () => cluster.testCluster,
    run,
    ok,
    json: async (args) => JSON.parse((await ok(['get', ...args, '-o', 'json'])).stdout),
    apply: (yaml) => ok(['apply', '-f', '-'], { stdin: yaml }),
    watch: (args) => startKubectlWatch(binary, args, options()),
  };
}

const VALIDATING_VERBS = new Set(['create', 'apply', 'edit', 'replace']);

/** withValidation turns client-side validation off for kubectl < 1.27 (see needsOpenApiV2)
 * unless the test chose a --validate mode itself. */
function withValidation(binary: KubectlBinary, args: string[]): string[] {
  if (!needsOpenApiV2(binary) || !VALIDATING_VERBS.has(args[0] ?? '')) return args;
  if (args.some((arg) => arg.startsWith('--validate'))) return args;
  return [...args, '--validate=false'];
}

/** tableRows splits kubectl's table output into rows of whitespace-separated cells. */
export function tableRows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s{2,}|\t/));
}

/** deploymentYaml is a small Deployment manifest (one nginx container, port 80) selecting `app: <name>`. */
export function deploymentYaml(name: string, { replicas = 2, image = 'nginx:1.25', labels = { app: name } as Record<string, string> } = {}): string {
  const labelLines = Object.entries(labels)
    .map(([k, v]) => `    ${k}: ${v}`)
    .join('\n');
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
${labelLines}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports:
        - containerPort: 80
`;
}

/** configMapYaml is a ConfigMap manifest with the given data. */
export function configMapYaml(name: string, data: Record<string, string> = { key: 'value' }): string {
  const dataLines = Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
${dataLines}
`;
}

/** namespaceYaml is a Namespace manifest. */
export function namespaceYaml(name: string): string {
  return `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
`;
}
