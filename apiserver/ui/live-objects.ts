/**
 * What the live view shows of the store: the kinds of its object graph, each object trimmed
 * to what the page reads, and which history entries are worth a line in its timeline.
 */
import type { StoredObject } from '../../store/index.js';
import type { HistoryItem } from '../api/kubesim/history.js';
import type { Registry } from '../api/registry.js';
import type { LiveViewKind } from '../api/resource-definition.js';

/** LiveKind is the page's name for a kind of its graph (a definition's `liveView`). */
export type LiveKind = LiveViewKind;

/** LiveKindEntry is one kind of the graph: the page's name for it and its storage resource. */
export interface LiveKindEntry {
  kind: LiveKind;
  resource: string;
}

const cache = new WeakMap<Registry, { generation: number; byResource: ReadonlyMap<string, LiveKind> }>();

/** kindsByResource maps the storage resource of every served kind that asks to be drawn
 * (ResourceDefinition.liveView) to its page name; rebuilt when the registry changes. */
function kindsByResource(registry: Registry): ReadonlyMap<string, LiveKind> {
  const cached = cache.get(registry);
  if (cached?.generation === registry.generation) return cached.byResource;
  const byResource = new Map<string, LiveKind>();
  for (const def of registry.all()) if (def.liveView) byResource.set(def.storage.resource, def.liveView);
  cache.set(registry, { generation: registry.generation, byResource });
  return byResource;
}

/** liveKinds lists the graph's kinds, read from the registry's definitions. */
export function liveKinds(registry: Registry): LiveKindEntry[] {
  return [...kindsByResource(registry)].map(([resource, kind]) => ({ kind, resource }));
}

/** liveKindOf is the page's kind of a storage resource, or undefined when the graph skips it. */
export function liveKindOf(registry: Registry, resource: string): LiveKind | undefined {
  return kindsByResource(registry).get(resource);
}

/** Resources whose every change would drown the timeline: heartbeats and Events (which
 * repeat, in words, changes the timeline already shows). */
const QUIET_RESOURCES: ReadonlySet<string> = new Set(['leases.coordination.k8s.io', 'events', 'events.events.k8s.io']);

/** Fields a heartbeat touches; a change of nothing else is not news. */
const HEARTBEAT_FIELD = /(^|\.)(lastHeartbeatTime|renewTime)$/;

/** isQuietResource says whether changes of `resource` stay out of the timeline. */
export function isQuietResource(resource: string): boolean {
  return QUIET_RESOURCES.has(resource);
}

/** isTimelineWorthy says whether a history entry gets a line in the timeline. */
export function isTimelineWorthy(item: HistoryItem): boolean {
  if (isQuietResource(item.resource)) return false;
  return item.type !== 'MODIFIED' || item.diff.length === 0 || !item.diff.every((change) => HEARTBEAT_FIELD.test(change.path));
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** slimObject drops what the page never reads and what makes objects big: field ownership,
 * kubectl's copy of the applied manifest, a node's image list. Returns a new object. */
export function slimObject(object: StoredObject): StoredObject {
  const { managedFields: _managedFields, annotations, ...metadata } = object.metadata as StoredObject['metadata'] & { annotations?: Record<string, string> };
  const slim: StoredObject = { ...object, metadata };
  if (annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...rest } = annotations;
    if (Object.keys(rest).length > 0) slim.metadata['annotations'] = rest;
  }
  const status = object['status'] as Record<string, unknown> | undefined;
  if (status && 'images' in status) {
    const { images: _images, ...rest } = status;
    slim['status'] = rest;
  }
  return slim;
}
