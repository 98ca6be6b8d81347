/**
 * The reflector: the list-and-watch loop that keeps an informer's cache in step with the API
 * server (client-go's Reflector, kube-rs's watcher), as an explicit state machine.
 *
 *   start ─► listing ──listed──► watching ──streamEnded──► watching   (re-watch from the last RV:
 *             │ ▲ ▲                 │ │ │                             a server timeout or a dropped
 *             │ │ └────expired──────┘ │ │                             stream loses nothing)
 *             │ └─expired (410 list)  │ └─disconnected──► reconnecting ──backoffDone──► watching
 *             │                       │   (NetworkError: refused, reset before the first byte;
 *           failed                  failed  the RV is still good, so wait and re-watch)
 *             ▼                       ▼
 *          backingOff ◄───────────────┘       expired = ERROR event with a 410 Status, or HTTP
 *             └──backoffDone──► listing          410: re-list from scratch (RV dropped)
 *
 *   Waits (backingOff, reconnecting) use clock.sleep with exponential backoff, reset by any
 *   watch frame.
 *
 *   any state ── aborted (signal) ──► stopped
 *
 * Which resourceVersion a list asks for: none at first and after a 410 (a consistent read of
 * the latest state), else the last one seen (`NotOlderThan`), as client-go does. A watch
 * always starts from the last RV the reflector saw (list RV, then each event's, then
 * bookmarks'), so a re-watch neither repeats nor misses a change.
 */
import { ApiError, isExpired, type Status } from '../../apiserver/api/api-error.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { isNetworkError } from './client/http-transport.js';
import type { Clock, Logger, ResourceClient, WatchEvent } from './types.js';

/** ReflectorState is a box of the diagram above. */
export type ReflectorState = 'listing' | 'watching' | 'reconnecting' | 'backingOff' | 'stopped';
/** ReflectorOutcome is how a state's step ended: an arrow of the diagram above. */
export type ReflectorOutcome = 'listed' | 'expired' | 'failed' | 'disconnected' | 'streamEnded' | 'backoffDone' | 'aborted';

/** REFLECTOR_TRANSITIONS is the diagram above as data; a missing entry is an impossible pair. */
export const REFLECTOR_TRANSITIONS: Record<ReflectorState, Partial<Record<ReflectorOutcome, ReflectorState>>> = {
  listing: { listed: 'watching', expired: 'listing', failed: 'backingOff', aborted: 'stopped' },
  watching: { streamEnded: 'watching', disconnected: 'reconnecting', expired: 'listing', failed: 'backingOff', aborted: 'stopped' },
  reconnecting: { backoffDone: 'watching', aborted: 'stopped' },
  backingOff: { backoffDone: 'listing', aborted: 'stopped' },
  stopped: {},
};

/** nextReflectorState is the state after `outcome` in `state`. Throws for a pair the loop
 * cannot produce (a bug, not a runtime condition). Pure. */
export function nextReflectorState(state: ReflectorState, outcome: ReflectorOutcome): ReflectorState {
  const next = REFLECTOR_TRANSITIONS[state][outcome];
  if (next === undefined) throw new Error(`reflector: no transition from ${state} on ${outcome}`);
  return next;
}

/** ReflectorSink is where the reflector delivers what it learns (the informer's cache). Its
 * methods must not throw; the reflector treats a throw as a failed watch and re-lists. */
export interface ReflectorSink<T> {
  /** A complete list: the cache becomes exactly `items`. */
  replace(items: T[], resourceVersion: string): void;
  /** One change from the watch, in revision order. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: T): void;
}

/** ReflectorOptions configures a Reflector: what to list and watch, and where to deliver it. */
export interface ReflectorOptions<T extends KubeObject> {
  client: ResourceClient<T>;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  clock: Clock;
  logger: Logger;
  sink: ReflectorSink<T>;
  /** First backoff after a failure (doubles up to maxBackoffMs). Default 500. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Source of the watch-timeout and backoff jitter; the platform's when absent. */
  random?: Random;
}

/** Reflector runs the state machine above until its signal aborts. */
export class Reflector<T extends KubeObject> {
  /** The last resourceVersion seen (list, event or bookmark); where a re-watch starts. */
  private lastResourceVersion: string | undefined;
  /** What the next list asks for: undefined = a consistent read of the latest state. */
  private relistFrom: string | undefined;
  private readonly backoff: Backoff;
  private readonly random: Random;

  constructor(private readonly options: ReflectorOptions<T>) {
    this.random = options.random ?? createRandom();
    this.backoff = new Backoff(options.initialBackoffMs ?? 500, options.maxBackoffMs ?? 30_000, this.random);
  }

  /** run lists, watches and recovers until `signal` aborts; it never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    let state: ReflectorState = signal.aborted ? 'stopped' : 'listing';
    while (state !== 'stopped') {
      const outcome = await this.step(state, signal);
      const next = nextReflectorState(state, outcome);
      this.options.logger.debug({ from: state, outcome, to: next, resourceVersion: this.lastResourceVersion }, 'reflector transition');
      state = next;
    }
  }

  private step(state: Exclude<ReflectorState, 'stopped'>, signal: AbortSignal): Promise<ReflectorOutcome> {
    switch (state) {
      case 'listing':
        return this.list(signal);
      case 'watching':
        return this.watch(signal);
      case 'backingOff':
      case 'reconnecting':
        return this.backOff(signal, state);
      default: {
        const impossible: never = state;
        throw new Error(`reflector: unknown state ${String(impossible)}`);
      }
    }
  }

  private async list(signal: AbortSignal): Promise<ReflectorOutcome> {
    const { client, namespace, labelSelector, fieldSelector } = this.options;
    const resourceVersion = this.relistFrom;
    try {
      const list = await client.list({
        namespace,
        labelSelector,
        fieldSelector,
        resourceVersion,
        resourceVersionMatch: resourceVersion ? 'NotOlderThan' : undefined,
      });
      if (signal.aborted) return 'aborted';
      this.options.sink.replace(list.items, list.metadata.resourceVersion);
      this.lastResourceVersion = this.relistFrom = list.metadata.resourceVersion;
      this.options.logger.debug({ items: list.items.length, resourceVersion: list.metadata.resourceVersion }, 'listed');
      return 'listed';
    } catch (err) {
      return this.classify(err, signal, 'list');
    }
  }

  private async watch(signal: AbortSignal): Promise<ReflectorOutcome> {
    const { client, namespace, labelSelector, fieldSelector } = this.options;
    // A randomised server-side timeout spreads re-watches out, as client-go does (5–10 min).
    const timeoutSeconds = 300 + this.random.int(300);
    const resourceVersion = this.lastResourceVersion;
    try {
      const events = client.watch({ namespace, labelSelector, fieldSelector, resourceVersion, allowWatchBookmarks: true, timeoutSeconds, signal });
      for await (const event of events) {
        const outcome = this.handle(event);
        if (outcome) return outcome;
      }
      if (signal.aborted) return 'aborted';
      this.options.logger.debug({ resourceVersion: this.lastResourceVersion }, 'watch ended; re-watching');
      return 'streamEnded';
    } catch (err) {
      return this.classify(err, signal, 'watch');
    }
  }

  /** handle applies one watch event; it returns an outcome when the event ends the watch. */
  private handle(event: WatchEvent<T>): ReflectorOutcome | undefined {
    // Any frame proves the connection healthy: the next failure starts from a short backoff.
    this.backoff.reset();
    switch (event.type) {
      case 'ERROR':
        return this.classify(ApiError.fromStatus(event.object as unknown as Partial<Status>, 500), undefined, 'watch');
      case 'BOOKMARK':
        this.lastResourceVersion = event.object.metadata.resourceVersion ?? this.lastResourceVersion;
        return undefined;
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED':
        this.options.sink.apply(event.type, event.object);
        this.lastResourceVersion = event.object.metadata.resourceVersion ?? this.lastResourceVersion;
        return undefined;
      default: {
        const impossible: never = event.type;
        throw new Error(`reflector: unknown watch event type ${String(impossible)}`);
      }
    }
  }

  private async backOff(signal: AbortSignal, state: 'backingOff' | 'reconnecting'): Promise<ReflectorOutcome> {
    const delayMs = this.backoff.next();
    this.options.logger.debug({ delayMs }, state === 'backingOff' ? 'backing off before re-listing' : 'waiting before re-watching');
    try {
      await this.options.clock.sleep(delayMs, signal);
      return 'backoffDone';
    } catch (err) {
      if (signal.aborted) return 'aborted';
      throw err;
    }
  }

  /** classify maps a failure to an outcome: shutdown, 410 (re-list from scratch), a watch
   * that could not reach the server (re-watch later) or any other error (re-list later). */
  private classify(err: unknown, signal: AbortSignal | undefined, during: 'list' | 'watch'): ReflectorOutcome {
    if (signal?.aborted) return 'aborted';
    if (isExpired(err)) {
      this.relistFrom = undefined;
      this.options.logger.info({ during, resourceVersion: this.lastResourceVersion, reason: (err as Error).message }, 'expired; re-listing');
      return 'expired';
    }
    if (during === 'watch' && isNetworkError(err)) {
      this.options.logger.info({ reason: err.message }, 'watch disconnected; re-watching after a backoff');
      return 'disconnected';
    }
    this.options.logger.warn({ during, err }, `${during} failed; backing off`);
    return 'failed';
  }
}

/** Backoff is an exponential delay with up to 10% jitter, reset after a success. */
class Backoff {
  private currentMs: number;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly random: Random,
  ) {
    this.currentMs = initialMs;
  }

  next(): number {
    const delayMs = this.currentMs;
    this.currentMs = Math.min(this.currentMs * 2, this.maxMs);
    return delayMs + Math.floor(this.random.next() * delayMs * 0.1);
  }

  reset(): void {
    this.currentMs = this.initialMs;
  }
}
