/**
 * The event recorder: writes core/v1 Events about objects, the ones `kubectl describe` and
 * `kubectl events` show (client-go's record.EventRecorder with a simplified EventCorrelator).
 *
 * Aggregation: an event with the same (object uid, type, reason, message) as one recorded
 * less than AGGREGATION_WINDOW_MS ago is not written again; the existing Event's count and
 * lastTimestamp are bumped with a merge patch. Recent events live in a bounded LRU map.
 *
 * Writes are fire-and-forget: event() returns at once, writes for one series are chained
 * so a bump never overtakes its create, and failures are logged, never thrown — a lost
 * event must not fail a reconcile.
 */
import { isNotFound } from '../../apiserver/api/api-error.js';

import type { Event } from '../../apiserver/api/core/event.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { KubeClient } from './client/http-client.js';
import { KINDS } from './kinds.js';
import type { Clock, DeepReadonly, EventRecorder, Logger, ResourceClient } from './types.js';

/** AGGREGATION_WINDOW_MS is how long after its last occurrence an event still aggregates. */
export const AGGREGATION_WINDOW_MS = 10 * 60_000;

/** EventRecorderOptions configures createEventRecorder. */
export interface EventRecorderOptions {
  client: KubeClient;
  /** source.component and reportingComponent, e.g. `replicaset-controller`. */
  component: string;
  /** source.host (the node, for kubelets) and reportingInstance. */
  host?: string;
  clock: Clock;
  logger: Logger;
  /** Bound of the aggregation cache (least recently seen series are forgotten). Default 4096. */
  maxCachedEvents?: number;
  /** Source of the noise in event names; the platform's when absent. */
  random?: Random;
}

/** HttpEventRecorder is an EventRecorder whose pending writes can be awaited (shutdown, tests). */
export interface HttpEventRecorder extends EventRecorder {
  /** Resolves when every write started so far has finished (successfully or logged). */
  flush(): Promise<void>;
}

/** Series is one aggregated event: what the server holds, as far as this recorder knows. */
interface Series {
  namespace: string;
  name: string;
  count: number;
  lastSeenMs: number;
  /** The last write of this series; the next one is chained after it. */
  tail: Promise<void>;
}

/** createEventRecorder returns an HttpEventRecorder (see the module comment). event() never
 * throws. Events about cluster-scoped objects go to namespace `default`, as in Kubernetes. */
export function createEventRecorder(options: EventRecorderOptions): HttpEventRecorder {
  return new AggregatingEventRecorder(options);
}

type EventType = 'Normal' | 'Warning';

class AggregatingEventRecorder implements HttpEventRecorder {
  private readonly events: ResourceClient<Event>;
  /** Recent series by correlation key, least recently seen first (the LRU order). */
  private readonly series = new Map<string, Series>();
  private readonly pending = new Set<Promise<void>>();
  private readonly logger: Logger;
  private readonly random: Random;

  constructor(private readonly options: EventRecorderOptions) {
    this.events = options.client.resource(KINDS.event);
    this.logger = options.logger.child({ component: options.component });
    this.random = options.random ?? createRandom();
  }

  event(object: DeepReadonly<KubeObject>, type: EventType, reason: string, message: string): void {
    try {
      const nowMs = this.options.clock.now();
      const key = [object.metadata.uid ?? `${object.metadata.namespace}/${object.metadata.name}`, type, reason, message].join('\u0000');
      const known = this.series.get(key);
      const occurrence = { object, type, reason, message, nowMs };
      if (known && nowMs - known.lastSeenMs < AGGREGATION_WINDOW_MS) this.repeat(key, known, occurrence);
      else this.first(key, occurrence);
    } catch (err) {
      this.logger.error({ err, reason }, 'could not record event');
    }
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** noiseFor draws the name's noise. Seeded, it depends only on the series and the time, not
   * on the order in which concurrent controllers sharing this recorder happen to record. */
  private noiseFor(seriesKey: string, nowMs: number): number {
    const random = this.random.seed === undefined ? this.random : this.random.fork(`${seriesKey}@${nowMs}`);
    return random.int(1_000_000);
  }

  private first(key: string, occurrence: Omit<Occurrence, 'count' | 'name'>): void {
    const { object, nowMs } = occurrence;
    const entry: Series = {
      namespace: object.metadata.namespace || 'default',
      name: eventName(object.metadata.name ?? 'unknown', nowMs, this.noiseFor(key, nowMs)),
      count: 1,
      lastSeenMs: nowMs,
      tail: Promise.resolve(),
    };
    this.remember(key, entry);
    const body = newEvent(this.options, { ...occurrence, count: 1, name: entry.name });
    this.enqueue(entry, async () => void (await this.events.create(body)));
  }

  private repeat(key: string, entry: Series, occurrence: Omit<Occurrence, 'count' | 'name'>): void {
    this.remember(key, entry);
    entry.count += 1;
    entry.lastSeenMs = occurrence.nowMs;
    const count = entry.count;
    const recreate = () => newEvent(this.options, { ...occurrence, count, name: entry.name });
    this.enqueue(entry, () => bump(this.events, { entry, count, nowMs: occurrence.nowMs, recreate }));
  }

  /** enqueue chains `write` after the series' previous write, so a bump never overtakes its create. */
  private enqueue(entry: Series, write: () => Promise<void>): void {
    const next = entry.tail.then(write).catch((err: unknown) => this.logger.warn({ err, event: entry.name }, 'could not write event'));
    entry.tail = next;
    this.pending.add(next);
    void next.finally(() => this.pending.delete(next));
  }

  /** remember (re)inserts `entry` as the most recent series, evicting the least recent. */
  private remember(key: string, entry: Series): void {
    this.series.delete(key);
    this.series.set(key, entry);
    const maxCached = this.options.maxCachedEvents ?? 4096;
    for (const oldest of this.series.keys()) {
      if (this.series.size <= maxCached) break;
      this.series.delete(oldest);
    }
  }
}

interface Bump {
  entry: Series;
  count: number;
  nowMs: number;
  recreate: () => Event;
}

/** bump raises the stored event's count; if the Event is gone (deleted or expired) it is
 * written again with the count so far, as client-go does. */
async function bump(events: ResourceClient<Event>, { entry, count, nowMs, recreate }: Bump): Promise<void> {
  try {
    await events.patch(entry.namespace, entry.name, { count, lastTimestamp: rfc3339(nowMs) }, { type: 'merge' });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await events.create(recreate());
  }
}

interface Occurrence {
  object: DeepReadonly<KubeObject>;
  type: EventType;
  reason: string;
  message: string;
  nowMs: number;
  count: number;
  name: string;
}

function newEvent(options: EventRecorderOptions, occurrence: Occurrence): Event {
  const { object, type, reason, message, nowMs, count, name } = occurrence;
  const { namespace, uid, resourceVersion } = object.metadata;
  const timestamp = rfc3339(nowMs);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: namespace || 'default' },
    involvedObject: { kind: object.kind, namespace, name: object.metadata.name, uid, apiVersion: object.apiVersion, resourceVersion },
    reason,
    message,
    type,
    source: options.host ? { component: options.component, host: options.host } : { component: options.component },
    reportingComponent: options.component,
    reportingInstance: options.host ?? options.component,
    firstTimestamp: timestamp,
    lastTimestamp: timestamp,
    count,
  };
}

/** eventName is `<involved name>.<hex>`, the hex from the time in ns (plus `noise` < 10^6
 * against collisions between recorders), as client-go names events. */
export function eventName(involvedName: string, nowMs: number, noise: number = createRandom().int(1_000_000)): string {
  const nanos = BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(noise);
  return `${involvedName}.${nanos.toString(16)}`;
}
