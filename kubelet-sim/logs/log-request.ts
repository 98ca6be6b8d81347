/**
 * The kubelet's containerLogs request: query options (PodLogOptions), the checks the kubelet
 * makes before serving logs (its messages are what `kubectl logs` prints), and selecting and
 * formatting lines. Pure.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { allContainerStatuses } from '../../apiserver/api/core/pod-status.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import type { LogLine } from './container-log-store.js';

/** LogQuery is the subset of PodLogOptions the simulated kubelet honours. */
export interface LogQuery {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  sinceTimeMs?: number;
  limitBytes?: number;
}

const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** parseLogQuery reads the query string leniently (as the API server passes it on); it
 * returns an error message for a malformed number. */
export function parseLogQuery(params: URLSearchParams): LogQuery | string {
  const query: LogQuery = {
    follow: TRUE.has(params.get('follow') ?? ''),
    previous: TRUE.has(params.get('previous') ?? ''),
    timestamps: TRUE.has(params.get('timestamps') ?? ''),
  };
  for (const name of ['tailLines', 'sinceSeconds', 'limitBytes'] as const) {
    const text = params.get(name);
    if (text === null || text === '') continue;
    if (!/^\d+$/.test(text)) return `invalid ${name}: ${JSON.stringify(text)} is not a non-negative integer`;
    query[name] = Number(text);
  }
  const sinceTime = params.get('sinceTime');
  if (sinceTime) {
    const ms = Date.parse(sinceTime);
    if (Number.isNaN(ms)) return `invalid sinceTime: ${JSON.stringify(sinceTime)}`;
    query.sinceTimeMs = ms;
  }
  return query;
}

/**
 * logsUnavailableReason says why the kubelet cannot serve the container's logs yet (the
 * kubelet's validateContainerLogStatus), or undefined when it can.
 */
export function logsUnavailableReason(pod: DeepReadonly<Pod>, container: string, previous: boolean): string | undefined {
  const podName = pod.metadata.name ?? '';
  const status = allContainerStatuses(pod.status).find((s) => s.name === container);
  if (!status) return `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating`;
  if (previous) return status.lastState?.terminated ? undefined : `previous terminated container "${container}" in pod "${podName}" not found`;
  const waiting = status.state?.waiting;
  if (!waiting || status.lastState?.terminated) return undefined;
  if (waiting.reason === 'ErrImagePull' || waiting.reason === 'ImagePullBackOff') {
    return `container "${container}" in pod "${podName}" is waiting to start: trying and failing to pull image`;
  }
  return `container "${container}" in pod "${podName}" is waiting to start: ${waiting.reason ?? 'ContainerCreating'}`;
}

/** selectLines applies sinceSeconds/sinceTime, then tailLines. */
export function selectLines(lines: readonly LogLine[], query: LogQuery, nowMs: number): LogLine[] {
  const sinceMs = query.sinceTimeMs ?? (query.sinceSeconds !== undefined ? nowMs - query.sinceSeconds * 1000 : undefined);
  const recent = sinceMs === undefined ? [...lines] : lines.filter((line) => line.timeMs >= sinceMs);
  return query.tailLines === undefined ? recent : recent.slice(Math.max(0, recent.length - query.tailLines));
}

/** rfc3339Nano formats a time as Go's time.RFC3339Nano does (trailing zeros trimmed). */
export function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** formatLine is one line as sent: optionally prefixed with its timestamp and a space. */
export function formatLine(line: LogLine, timestamps: boolean): string {
  return `${timestamps ? `${rfc3339Nano(line.timeMs)} ` : ''}${line.text}\n`;
}

/** ByteBudget enforces limitBytes across a (possibly streamed) response. */
export class ByteBudget {
  private remaining: number;

  constructor(limitBytes: number | undefined) {
    this.remaining = limitBytes ?? Number.POSITIVE_INFINITY;
  }

  /** take returns the part of `text` that still fits (maybe empty). */
  take(text: string): string {
    if (this.remaining <= 0) return '';
    const bytes = Buffer.from(text, 'utf8');
    const kept = bytes.length <= this.remaining ? text : bytes.subarray(0, this.remaining).toString('utf8');
    this.remaining -= Math.min(bytes.length, this.remaining);
    return kept;
  }

  get exhausted(): boolean {
    return this.remaining <= 0;
  }
}
