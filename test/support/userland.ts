/**
 * Helpers to drive the simulated userland (kubelet-sim/userland) the way the exec wire does:
 * a ProcessIO that collects what the container writes, readers of cluster objects (plain objects,
 * or a real test API server over HTTP), and a container context built from a pod object.
 */

import { expect } from 'vitest';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { createClusterReader } from '../../kubelet-sim/streaming/cluster-reader.js';
import type { ClusterReader, ContainerUserland, ProcessIO } from '../../kubelet-sim/userland/contract.js';
import { createUserlandFactory } from '../../kubelet-sim/userland/index.js';
import { eventually } from './eventually.js';

const PLURALS: Record<string, string> = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  Service: 'services',
  Node: 'nodes',
  EndpointSlice: 'endpointslices',
  NetworkPolicy: 'networkpolicies',
  Namespace: 'namespaces',
};

/** objectReader serves plain objects (each with kind and metadata) as a ClusterReader. */
export function objectReader(objects: ReadonlyArray<Record<string, any>>): ClusterReader {
  const matches = (object: Record<string, any>, resource: string, namespace?: string) =>
    PLURALS[object['kind']] === resource && (namespace === undefined || (object['metadata']?.namespace ?? '') === namespace);
  return {
    get: async (resource, namespace, name) => objects.find((o) => matches(o, resource, namespace) && o['metadata']?.name === name),
    list: async (resource, namespace) => objects.filter((o) => matches(o, resource, namespace)),
  };
}

/** httpReader reads objects from an API server (and requests tokens) as the kubelet does: it is
 * the kubelet's own reader. */
export function httpReader(url: string): ClusterReader {
  return createClusterReader(createKubeClient({ server: url, userAgent: 'kubesim-userland-test/0.1' }));
}

export interface RunResult {
  status: number | undefined;
  stdout: string;
  stderr: string;
  /** stdout as bytes (tar archives). */
  bytes: Uint8Array;
}

export interface RunOptions {
  stdin?: string | Uint8Array | Array<string | Uint8Array>;
  tty?: boolean;
  signal?: AbortSignal;
}

/** collectingIO: a ProcessIO fed from `stdin` chunks that keeps what the process writes. */
export function collectingIO(options: RunOptions = {}): { io: ProcessIO; result: () => Omit<RunResult, 'status'> } {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const bytes = (data: string | Uint8Array) => (typeof data === 'string' ? new TextEncoder().encode(data) : data);
  const chunks = options.stdin === undefined ? undefined : Array.isArray(options.stdin) ? options.stdin : [options.stdin];
  const io: ProcessIO = {
    stdin: chunks
      ? (async function* () {
          for (const chunk of chunks) yield bytes(chunk);
        })()
      : undefined,
    stdout: (data) => out.push(bytes(data)),
    stderr: (data) => err.push(bytes(data)),
    tty: options.tty ?? false,
    signal: options.signal ?? new AbortController().signal,
  };
  const join = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
  return { io, result: () => ({ stdout: join(out).toString('utf8'), stderr: join(err).toString('utf8'), bytes: new Uint8Array(join(out)) }) };
}

/** typist is a terminal user: it types each step's keys once the screen (output so far) ends
 * with the step's `after` text (a prompt), or once `after` says so (a command is running). */
export async function* typist(screen: () => string, steps: ReadonlyArray<{ after: string | (() => boolean); keys: string }>): AsyncGenerator<Uint8Array> {
  for (const { after, keys } of steps) {
    const ready = typeof after === 'string' ? () => screen().endsWith(after) : after;
    await eventually(() => expect(ready(), `screen: ${JSON.stringify(screen())}`).toBe(true));
    yield new TextEncoder().encode(keys);
  }
}

/** run execs argv in a container and collects its output and exit status. */
export async function run(userland: ContainerUserland, argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const { io, result } = collectingIO(options);
  const status = await userland.exec(argv, io);
  return { status, ...result() };
}

/** sh runs a script with `sh -c`. */
export const sh = (userland: ContainerUserland, script: string, options: RunOptions = {}) => run(userland, ['sh', '-c', script], options);

export interface PodOptions {
  image?: string;
  namespace?: string;
  container?: Record<string, any>;
  spec?: Record<string, any>;
  status?: Record<string, any>;
  labels?: Record<string, string>;
}

/** podObject: a scheduled, running pod with one container `main`. */
export function podObject(name: string, options: PodOptions = {}): any {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: options.namespace ?? 'default', uid: `uid-${name}`, labels: options.labels ?? {} },
    spec: {
      nodeName: 'node-1',
      serviceAccountName: 'default',
      containers: [{ name: 'main', image: options.image ?? 'busybox', ...options.container }],
      ...options.spec,
    },
    status: { phase: 'Running', podIP: '10.244.1.7', podIPs: [{ ip: '10.244.1.7' }], hostIP: '172.18.0.2', ...options.status },
  };
}

export const START_MS = Date.UTC(2026, 0, 2, 3, 4, 5);

/** userlandFor builds a container's userland from a pod, on a fake clock at START_MS. */
export function userlandFor(pod: any, reader: ClusterReader = objectReader([]), container = 'main', factory = createUserlandFactory()) {
  const clock = new FakeClock(START_MS);
  return { userland: factory({ pod, containerName: container, cluster: reader, clock }), clock, factory };
}
