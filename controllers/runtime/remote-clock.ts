/**
 * followServerClock gives a component process the cluster's time: a local ClusterClock that
 * copies the API server's clock (GET /apis/kubesim.io/v1alpha1/clock) and then applies every
 * change the server streams (?watch=1), so pause, resume, speed and advance on the server
 * reach this process. Between changes the copy runs on its own from the same state, so reading
 * the time costs no request.
 *
 *   start:    GET clock ─► local clock at that state ─► follow in the background
 *   follow:   watch ─► apply each line (a jump fires this process's due timers in order)
 *             stream ended or failed ─► wait (wall time, doubling 100 ms … 5 s) ─► watch again
 *             (the first line of every watch is the current state: nothing is missed)
 *   stop:     `signal` aborts ─► the watch closes; the clock keeps its last state
 *
 * NOTE: each follower applies a jump on its own, at its own pace: over a long `advance`, one
 * process may briefly see another's writes from an earlier moment (a lease renewal not yet
 * made), as after a real cluster resumes from suspension. For lock-step jumps, run the cluster
 * in one process (the embedded cluster's step hook settles it between due times).
 *
 * Reconnect waits are wall time: they are transport, and a paused cluster clock must not stall them.
 */
import { setTimeout as wallSleep } from 'node:timers/promises';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { CLOCK_PATH, type ClusterClockObject, decodeClusterClock } from '../../apiserver/api/kubesim/clock-object.js';
import { type ClockState, type ClusterClock, createClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import { type ClientTls, createHttpTransport, type HttpTransport } from './client/http-transport.js';
import { LineSplitter } from './client/watch-stream.js';
import { silentLogger } from './logger.js';
import type { Logger } from './types.js';

/** ClockServer says which API server's clock to follow, e.g. a loadKubeconfig() target. */
export interface ClockServer {
  server: string;
  token?: string;
  tls?: ClientTls;
  userAgent?: string;
}

/** FollowClockOptions tunes followServerClock. */
export interface FollowClockOptions {
  /** Hears about dropped streams (warn) and reconnects (debug); silent when absent. */
  logger?: Logger;
  /** First reconnect wait (wall ms). Default 100. */
  minBackoffMs?: number;
  /** Longest reconnect wait (wall ms). Default 5 000. */
  maxBackoffMs?: number;
}

/**
 * followServerClock resolves with a clock at the server's current state once it has read it,
 * and keeps it following the server until `signal` aborts (see the module comment). Rejects
 * when the first read fails: with an Error saying so when the server serves no clock (404),
 * else with the transport's ApiError or NetworkError. Do not steer the returned clock
 * yourself: the server's next change overwrites it.
 */
export async function followServerClock(source: ClockServer, signal: AbortSignal, options: FollowClockOptions = {}): Promise<ClusterClock> {
  const transport = createHttpTransport({
    server: source.server,
    token: source.token,
    tls: source.tls,
    userAgent: source.userAgent ?? 'kubesim-clock-follower/0.1',
  });
  let first: ClusterClockObject;
  try {
    first = decodeClusterClock(await transport.send({ method: 'GET', path: CLOCK_PATH, signal }));
  } catch (err) {
    transport.close();
    if (isNotFound(err))
      throw new Error(`the API server at ${source.server} serves no cluster clock (${CLOCK_PATH}); run this component with a local clock (--clock local)`);
    throw err;
  }
  const clock = createClusterClock({ mode: first.mode, speed: first.speed, startMs: first.nowMs });
  await clock.apply(stateOf(first));
  const follower = new Follower(clock, transport, signal, options);
  void follower.run().finally(() => transport.close());
  return clock;
}

class Follower {
  private readonly logger: Logger;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly clock: ClusterClock,
    private readonly transport: HttpTransport,
    private readonly signal: AbortSignal,
    options: FollowClockOptions,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.minBackoffMs = options.minBackoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
  }

  async run(): Promise<void> {
    let backoffMs = this.minBackoffMs;
    while (!this.signal.aborted) {
      try {
        if (await this.watchOnce()) backoffMs = this.minBackoffMs;
        this.logger.debug({}, 'cluster clock stream ended; watching again');
      } catch (err) {
        if (this.signal.aborted) break;
        this.logger.warn({ err: (err as Error).message, retryInMs: backoffMs }, 'following the cluster clock failed; retrying');
      }
      try {
        await wallSleep(backoffMs, undefined, { signal: this.signal });
      } catch {
        break; // aborted
      }
      backoffMs = Math.min(this.maxBackoffMs, backoffMs * 2);
    }
  }

  /** watchOnce applies the lines of one watch until it ends; true if any line arrived. */
  private async watchOnce(): Promise<boolean> {
    const response = await this.transport.open({ method: 'GET', path: CLOCK_PATH, query: { watch: 1 }, signal: this.signal });
    const lines = new LineSplitter();
    let received = false;
    try {
      for await (const chunk of response) {
        for (const line of lines.push(chunk as Buffer)) {
          await this.clock.apply(stateOf(decodeClusterClock(parseLine(line))));
          received = true;
        }
      }
    } finally {
      response.destroy();
    }
    return received;
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (err) {
    throw new Error(`cluster clock stream sent a line that is not JSON: ${(err as Error).message}`);
  }
}

function stateOf(object: ClusterClockObject): ClockState {
  return { nowMs: object.nowMs, speed: object.speed, paused: object.paused, wallMs: object.wallMs };
}
