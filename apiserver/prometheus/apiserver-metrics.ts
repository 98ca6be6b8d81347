/**
 * kube-apiserver's main metric families with its names, label names and buckets:
 * apiserver_request_total and apiserver_request_duration_seconds per route,
 * apiserver_longrunning_requests (watches, log streams), apiserver_watch_events_total and
 * _sizes, and apiserver_storage_objects counted from the store when scraped. Series are
 * resolved once per route (RouteSeries) and per watched kind, so a request only adds numbers.
 */

import type { Store } from '../../store/index.js';
import {
  CounterFamily,
  type CounterSeries,
  exponentialBuckets,
  GaugeFamily,
  type GaugeSeries,
  HistogramFamily,
  type HistogramSeries,
  type MetricSet,
} from '../api/machinery/metric-series.js';
import type { Registry } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource-definition.js';

/** kube-apiserver's request latency buckets (seconds). */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** The `component` label of requests the API server itself serves. */
const COMPONENT = 'apiserver';
const ENDPOINT_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
const LONGRUNNING_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
const WATCH_LABELS = ['group', 'version', 'resource'];

/** RouteLabels: what kube-apiserver reports a request under, all known before it is served. */
export interface RouteLabels {
  def: ResourceDefinition;
  /** GET, LIST, WATCH, POST, PUT, PATCH, APPLY, DELETE or DELETECOLLECTION. */
  verb: string;
  subresource: string;
  /** resource (a named object, or a create), namespace, or cluster. */
  scope: string;
  /** '' or All. */
  dryRun: string;
}

/** RouteSeries is every series one route reports to. */
export class RouteSeries {
  private readonly codes = new Map<number, CounterSeries>();
  private longRunningSeries: GaugeSeries | undefined;

  constructor(
    private readonly metrics: ApiServerMetrics,
    private readonly labels: Record<string, string>,
    private readonly duration: HistogramSeries,
  ) {}

  /** record counts one finished request with its status code and duration. */
  record(code: number, seconds: number): void {
    let counter = this.codes.get(code);
    if (!counter) {
      counter = this.metrics.requests.series({ ...this.labels, code: String(code) });
      this.codes.set(code, counter);
    }
    counter.inc();
    this.duration.observe(seconds);
  }

  /** longRunning is the gauge of this route's open long-running requests. */
  longRunning(): GaugeSeries {
    this.longRunningSeries ??= this.metrics.longRunning.series(this.labels);
    return this.longRunningSeries;
  }
}

/** WatchEventSeries counts the events a watch of one kind sends, and their sizes. */
export interface WatchEventSeries {
  sent(bytes: number): void;
}

export interface ApiServerMetricsOptions {
  store: Store;
  registry: Registry;
  /** Resources served from elsewhere than the store (not counted as stored objects). */
  virtual?: ReadonlyMap<string, unknown>;
}

export class ApiServerMetrics implements MetricSet {
  readonly requests = new CounterFamily(
    'apiserver_request_total',
    'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    [...ENDPOINT_LABELS, 'code'],
  );
  readonly durations = new HistogramFamily(
    'apiserver_request_duration_seconds',
    'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    ENDPOINT_LABELS,
    REQUEST_DURATION_BUCKETS,
  );
  readonly longRunning = new GaugeFamily(
    'apiserver_longrunning_requests',
    'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    LONGRUNNING_LABELS,
  );
  readonly watchEvents = new CounterFamily('apiserver_watch_events_total', 'Number of events sent in watch clients', WATCH_LABELS);
  readonly watchEventSizes = new HistogramFamily(
    'apiserver_watch_events_sizes',
    'Watch event size distribution in bytes',
    WATCH_LABELS,
    exponentialBuckets(1024, 2, 8),
  );
  readonly storageObjects = new GaugeFamily('apiserver_storage_objects', 'Number of stored objects at the time of last check split by kind.', ['resource']);
  readonly families = [this.requests, this.durations, this.longRunning, this.watchEvents, this.watchEventSizes, this.storageObjects];

  /** Per kind: route key (verb, subresource, scope, dry run) → its series. */
  private readonly routes = new WeakMap<ResourceDefinition, Map<string, RouteSeries>>();
  private readonly watches = new WeakMap<ResourceDefinition, WatchEventSeries>();

  constructor(private readonly options: ApiServerMetricsOptions) {}

  /** route returns the series of a route; the same object for every request on it. */
  route(labels: RouteLabels): RouteSeries {
    let byKey = this.routes.get(labels.def);
    if (!byKey) {
      byKey = new Map();
      this.routes.set(labels.def, byKey);
    }
    const key = `${labels.verb} ${labels.subresource} ${labels.scope} ${labels.dryRun}`;
    let route = byKey.get(key);
    if (!route) {
      const values = {
        ...groupVersionResource(labels.def),
        verb: labels.verb,
        dry_run: labels.dryRun,
        subresource: labels.subresource,
        scope: labels.scope,
        component: COMPONENT,
      };
      route = new RouteSeries(this, values, this.durations.series(values));
      byKey.set(key, route);
    }
    return route;
  }

  /** watchEventsOf returns the watch-event series of a kind. */
  watchEventsOf(def: ResourceDefinition): WatchEventSeries {
    let series = this.watches.get(def);
    if (!series) {
      const labels = groupVersionResource(def);
      const events = this.watchEvents.series(labels);
      const sizes = this.watchEventSizes.series(labels);
      series = {
        sent: (bytes) => {
          events.inc();
          sizes.observe(bytes);
        },
      };
      this.watches.set(def, series);
    }
    return series;
  }

  /** beforeScrape counts the stored objects of every served resource kept in the store. */
  readonly beforeScrape = (): void => {
    const { store, registry, virtual } = this.options;
    const resources = new Set(
      registry
        .all()
        .filter((def) => (def.verbs ?? ['list']).includes('list'))
        .map((def) => def.storage.resource),
    );
    for (const resource of resources) {
      if (virtual?.has(resource)) continue;
      const page = store.listText({ resource, limit: 1 });
      this.storageObjects.series({ resource }).set(page.items.length + (page.remainingItemCount ?? 0));
    }
  };
}

function groupVersionResource(def: ResourceDefinition): Record<string, string> {
  return { group: def.group, version: def.version, resource: def.plural };
}
