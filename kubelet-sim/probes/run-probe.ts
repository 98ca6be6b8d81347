/**
 * One run of a probe's handler against a simulated container, with the kubelet's verdicts and
 * words: httpGet (pkg/probe/http), tcpSocket (pkg/probe/tcp), grpc (pkg/probe/grpc) and exec
 * (pkg/probe/exec, the runtime's ExecSync with the probe's timeout). Waits are cluster time.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Probe } from '../../apiserver/api/core/probe.js';
import type { Clock, DeepReadonly } from '../../controllers/runtime/types.js';
import type { ProcessIO } from '../userland/contract.js';
import { repositoryName } from '../userland/images.js';
import { exchange, formatRequest, type HttpAnswer } from './http-probe.js';
import type { ProbeTargets } from './targets.js';
import type { ProbeOutcome } from './worker.js';

/** MAX_OUTPUT: the kubelet keeps at most 10 KiB of an exec probe's output. */
const MAX_OUTPUT = 10 * 1024;

export interface ProbeRun {
  pod: DeepReadonly<Pod>;
  container: DeepReadonly<Container>;
  probe: DeepReadonly<Probe>;
  podIP: string;
}

const success = (output = ''): ProbeOutcome => ({ result: 'success', output });
const failure = (output: string): ProbeOutcome => ({ result: 'failure', output });

/** runProbe runs `run.probe` once; it never throws (a broken probe is a failure). */
export async function runProbe(run: ProbeRun, targets: ProbeTargets, clock: Clock): Promise<ProbeOutcome> {
  const timeoutMs = (run.probe.timeoutSeconds ?? 1) * 1000;
  const outcome = await probeHandler(run, targets, clock, timeoutMs);
  return outcome.result === 'failure' ? { ...outcome, stopExitCode: targets.stopExitCode(run.container) } : outcome;
}

/** RUNTIME_COULD_NOT_RUN: exec's exit codes for a program the image does not have (126: the
 * runtime could not start it; 127: a shell did not find it). */
const RUNTIME_COULD_NOT_RUN = new Set([126, 127]);

async function probeHandler(run: ProbeRun, targets: ProbeTargets, clock: Clock, timeoutMs: number): Promise<ProbeOutcome> {
  const { probe, container } = run;
  if (probe.exec) {
    const { exitCode, ...outcome } = await execProbe(run, targets, clock, timeoutMs);
    // An application's own health tool (`pg_isready`, `/app/healthcheck`) is not simulated.
    return exitCode !== undefined && RUNTIME_COULD_NOT_RUN.has(exitCode) && targets.opaque(container) ? success() : outcome;
  }
  // What an unmodelled application serves is unknown: it answers as its authors meant it to.
  if (targets.opaque(container)) return success(probe.grpc ? 'service healthy' : '');
  const reference = probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
  const port = resolvePort(reference, container);
  if (typeof port === 'string') return failure(port);
  if (probe.httpGet) return httpProbe(run, port, targets, clock, timeoutMs);
  const address = `${probe.tcpSocket?.host || run.podIP}:${port}`;
  if (probe.tcpSocket) {
    const connection = await targets.connect(run.pod, container, port);
    connection?.end();
    return connection ? success() : failure(`dial tcp ${address}: connect: connection refused`);
  }
  if (probe.grpc) return grpcProbe(run, port, clock, timeoutMs);
  return failure('missing probe handler');
}

/** resolvePort: a number, or a named port of the container (a number spelled as a string
 * too); the kubelet's error text when neither. */
export function resolvePort(reference: number | string | undefined, container: DeepReadonly<Container>): number | string {
  let port = typeof reference === 'number' ? reference : undefined;
  if (typeof reference === 'string') {
    port = container.ports?.find((candidate) => candidate.name === reference)?.containerPort ?? (/^\d+$/.test(reference) ? Number(reference) : undefined);
    if (port === undefined) return `couldn't find port: ${reference} in container ${container.name}`;
  }
  if (port === undefined || port <= 0 || port >= 65536) return `invalid port number: ${port}`;
  return port;
}

async function httpProbe(run: ProbeRun, port: number, targets: ProbeTargets, clock: Clock, timeoutMs: number): Promise<ProbeOutcome> {
  const get = run.probe.httpGet!;
  const scheme = (get.scheme || 'HTTP').toLowerCase();
  const host = get.host || run.podIP;
  const path = get.path || '/';
  const url = `${scheme}://${host}:${port}${path.startsWith('/') ? '' : '/'}${path}`;
  const headers = get.httpHeaders ?? [];
  const connection = await targets.connect(run.pod, run.container, port);
  if (!connection) return failure(`Get "${url}": dial tcp ${host}:${port}: connect: connection refused`);
  // The simulated servers speak plain HTTP: a TLS client gets their HTTP answer back, as Go reports.
  if (scheme === 'https') {
    connection.end();
    return failure(`Get "${url}": http: server gave HTTP response to HTTPS client`);
  }
  const request = formatRequest({ path, host: headers.find((h) => h.name.toLowerCase() === 'host')?.value ?? `${host}:${port}`, headers });
  const answer = await withTimeout(exchange(connection, request), clock, timeoutMs);
  if (!answer) {
    connection.end();
    return failure(`Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
  }
  return httpVerdict(answer, url);
}

function httpVerdict(answer: HttpAnswer, url: string): ProbeOutcome {
  if (answer.kind === 'eof') return failure(`Get "${url}": EOF`);
  if (answer.kind === 'malformed')
    return failure(`Get "${url}": net/http: HTTP/1.x transport connection broken: malformed HTTP response ${JSON.stringify(answer.line)}`);
  if (answer.code >= 200 && answer.code < 400) return success();
  return failure(`HTTP probe failed with statuscode: ${answer.code}`);
}

/** servesGrpcHealth: images that implement grpc.health.v1.Health on their declared ports (etcd,
 * and images named for gRPC). Everything else cannot be dialled by a gRPC client. */
function servesGrpcHealth(container: DeepReadonly<Container>, port: number): boolean {
  const repository = repositoryName(container.image ?? '');
  if (repository.endsWith('etcd')) return port === 2379 || (container.ports ?? []).some((p) => p.containerPort === port);
  return repository.includes('grpc') && (container.ports ?? []).some((p) => p.containerPort === port);
}

async function grpcProbe(run: ProbeRun, port: number, clock: Clock, timeoutMs: number): Promise<ProbeOutcome> {
  if (servesGrpcHealth(run.container, port)) return success('service healthy');
  // The kubelet's gRPC dial blocks until its deadline: the probe fails after timeoutSeconds.
  await clock.sleep(timeoutMs);
  return failure(`timeout: failed to connect service "${run.podIP}:${port}" within ${timeoutMs / 1000}s: context deadline exceeded`);
}

async function execProbe(run: ProbeRun, targets: ProbeTargets, clock: Clock, timeoutMs: number): Promise<ProbeOutcome & { exitCode?: number }> {
  const command = run.probe.exec?.command ?? [];
  const userland = await targets.userland(run.pod, run.container);
  if (!userland) return failure(`container not found (${JSON.stringify(run.container.name)})`);
  let output = '';
  const keep = (data: string | Uint8Array) => {
    if (output.length < MAX_OUTPUT) output = (output + (typeof data === 'string' ? data : Buffer.from(data).toString('utf8'))).slice(0, MAX_OUTPUT);
  };
  const abort = new AbortController();
  const io: ProcessIO = { stdout: keep, stderr: keep, tty: false, signal: abort.signal };
  const status = await withTimeout(userland.exec(command, io), clock, timeoutMs);
  if (status === undefined) {
    abort.abort();
    return failure(`command ${JSON.stringify(command.join(' '))} timed out`);
  }
  return status === 0 ? success(output) : { ...failure(output), exitCode: status };
}

/** withTimeout: the promise's value, or undefined once timeoutMs of cluster time passed first. */
async function withTimeout<T>(promise: Promise<T>, clock: Clock, timeoutMs: number): Promise<T | undefined> {
  let timer: { cancel(): void } | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = clock.setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    timer?.cancel();
  }
}
