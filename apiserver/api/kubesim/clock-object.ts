/**
 * The cluster clock as the API server reports it (GET /apis/kubesim.io/v1alpha1/clock), and
 * the check a following process makes of it. Free of zod: every component process loads it.
 */
export const CLOCK_API_VERSION = 'kubesim.io/v1alpha1';
export const CLOCK_PATH = '/apis/kubesim.io/v1alpha1/clock';

export interface ClusterClockObject {
  apiVersion: typeof CLOCK_API_VERSION;
  kind: 'ClusterClock';
  /** Cluster time, RFC 3339 with milliseconds. */
  now: string;
  nowMs: number;
  speed: number;
  paused: boolean;
  /** The mode the clock started in: real (running) or virtual (paused until advanced). */
  mode: 'real' | 'virtual';
  /** The server's wall time when `nowMs` was read (lets a follower add the transit time). */
  wallMs?: number;
}

/** decodeClusterClock checks that a body is a ClusterClock, throwing an Error naming the first
 * field that is not. */
export function decodeClusterClock(body: unknown): ClusterClockObject {
  const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const problem =
    o['apiVersion'] !== CLOCK_API_VERSION
      ? `apiVersion must be ${CLOCK_API_VERSION}`
      : o['kind'] !== 'ClusterClock'
        ? 'kind must be ClusterClock'
        : typeof o['now'] !== 'string'
          ? 'now must be a string'
          : typeof o['nowMs'] !== 'number'
            ? 'nowMs must be a number'
            : typeof o['speed'] !== 'number' || !(o['speed'] > 0)
              ? 'speed must be a positive number'
              : typeof o['paused'] !== 'boolean'
                ? 'paused must be a boolean'
                : o['mode'] !== 'real' && o['mode'] !== 'virtual'
                  ? 'mode must be real or virtual'
                  : o['wallMs'] !== undefined && typeof o['wallMs'] !== 'number'
                    ? 'wallMs must be a number'
                    : undefined;
  if (problem) throw new Error(`the API server sent something that is not a ClusterClock: ${problem}`);
  return o as unknown as ClusterClockObject;
}
