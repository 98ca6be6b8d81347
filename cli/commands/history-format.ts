/**
 * How `kubesim trace` and `kubesim watch` put a history entry into words: who (the loop, or
 * the client of a user), a verb for the common changes (created, deleted, bound, scaled,
 * reported status, set a→b) and a short diff. Pure.
 */
import type { FieldChange, HistoryActor, HistoryItem } from '../../apiserver/api/kubesim/history.js';

/** isLoopActor: the change was made by a control loop (it sent a cause), not by a user. */
export function isLoopActor(actor: HistoryActor | null): boolean {
  return !!actor?.controller;
}

/** actorName is the short name `kubesim watch` prints: the loop (`deployment`,
 * `kubelet/node-2`), else the client's product (`kubectl`), else `apiserver` for the
 * server's own writes. */
export function actorName(actor: HistoryActor | null): string {
  if (actor?.controller) return actor.controller;
  const product = actor?.userAgent?.split('/')[0];
  return product || actor?.fieldManager || (actor ? 'unknown' : 'apiserver');
}

/** actorLabel is the subject of a sentence in `kubesim trace`: `deployment controller`,
 * `scheduler`, `kubelet node-2`, `kubectl (user)`. */
export function actorLabel(actor: HistoryActor | null): string {
  const controller = actor?.controller;
  if (!controller) return actor ? `${actorName(actor)} (user)` : 'apiserver';
  if (controller === 'scheduler') return controller;
  if (controller.startsWith('kubelet/')) return `kubelet ${controller.slice('kubelet/'.length)}`;
  return `${controller} controller`;
}

/** objectLabel names the object: `deployment default/web`, or without the namespace when it
 * is `omitNamespace` (the trace's own namespace). */
export function objectLabel(item: HistoryItem, omitNamespace?: string): string {
  const kind = (item.kind ?? item.resource.split('.')[0] ?? item.resource).toLowerCase();
  const showNamespace = item.namespace !== '' && item.namespace !== omitNamespace;
  return `${kind} ${showNamespace ? `${item.namespace}/` : ''}${item.name}`;
}

/** describeChange is the predicate of the sentence: `scaled deployment default/web
 * spec.replicas 3→5`, `bound pod web-1 to node-2`, `reported pod web-1 status: Running, Ready`. */
export function describeChange(item: HistoryItem, omitNamespace?: string): string {
  const object = objectLabel(item, omitNamespace);
  switch (item.type) {
    case 'ADDED':
      return `created ${object}`;
    case 'DELETED':
      return `deleted ${object}`;
    case 'MODIFIED':
      return describeModification(item, object);
    default:
      return `changed ${object}`;
  }
}

function describeModification(item: HistoryItem, object: string): string {
  const { diff } = item;
  const nodeName = find(diff, 'spec.nodeName');
  if (nodeName?.new !== undefined && nodeName.old === undefined) return `bound ${object} to ${String(nodeName.new)}`;
  const deletion = find(diff, 'metadata.deletionTimestamp');
  if (deletion && deletion.old === undefined) return `marked ${object} for deletion`;
  if (diff.length === 0) return `touched ${object}`;
  if (diff.every((c) => c.path.startsWith('status'))) return `reported ${object} status: ${statusSummary(diff)}`;
  const replicas = find(diff, 'spec.replicas');
  if (!replicas) return `set ${object} ${shortDiff(diff)}`;
  // A replica count is the point of the write; what else changed with it (annotations) is a count.
  const more = diff.length > 1 ? ` (+${diff.length - 1} more)` : '';
  return `${isLoopActor(item.actor) ? 'set' : 'scaled'} ${object} ${shortDiff([replicas])}${more}`;
}

/** statusSummary reads a pod-like status change as words (`Running, Ready`), else a short diff. */
function statusSummary(diff: FieldChange[]): string {
  const words: string[] = [];
  const phase = find(diff, 'status.phase')?.new;
  if (typeof phase === 'string') words.push(phase);
  const ready = find(diff, 'status.conditions[type=Ready].status')?.new;
  if (ready === 'True') words.push('Ready');
  else if (ready === 'False') words.push('NotReady');
  return words.length > 0 ? words.join(', ') : shortDiff(diff.map((c) => ({ ...c, path: c.path.replace(/^status\./, '') })));
}

/** shortDiff renders the first `max` changes as `path old→new`, then how many more. */
export function shortDiff(diff: FieldChange[], max = 2): string {
  const shown = diff
    .slice(0, max)
    .map((c) => `${c.path} ${formatValue(c.old)}→${formatValue(c.new)}`)
    .join(', ');
  return diff.length > max ? `${shown} (+${diff.length - max} more)` : shown;
}

function formatValue(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function find(diff: FieldChange[], path: string): FieldChange | undefined {
  return diff.find((c) => c.path === path);
}
