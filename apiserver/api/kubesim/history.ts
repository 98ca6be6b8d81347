/**
 * The wire types of kubesim's change history (docs/history.md): the cause a control loop
 * sends with each write (the `X-Kubesim-Cause` header), the actor the API server records with
 * the change, and the HistoryList the kubesim.io/v1alpha1 history API serves. Shared by the
 * loops (apiserver/api/machinery/cause.ts), the API server and the CLI, as k8s.io/api is.
 */
import { z } from 'zod';

// The loops' side of causes (the CAUSE_HEADER name, originOf) lives in machinery/cause.ts,
// which loads no zod: loop processes never parse a cause, they only send one.

/** HISTORY_API_VERSION is the apiVersion of HistoryList (kubesim's own group, not in discovery). */
export const HISTORY_API_VERSION = 'kubesim.io/v1alpha1';

/** TriggerObjectSchema names the object whose watch event queued a key, at the revision the
 * loop saw: its resourceVersion is the revision of the history entry that caused it. */
export const TriggerObjectSchema = z.object({
  kind: z.string().optional(),
  namespace: z.string(),
  name: z.string(),
  resourceVersion: z.string(),
});
export type TriggerObject = z.infer<typeof TriggerObjectSchema>;

const EventTriggerSchema = z.object({ kind: z.literal('event'), type: z.enum(['ADDED', 'MODIFIED', 'DELETED']), object: TriggerObjectSchema });
const ResyncTriggerSchema = z.object({ kind: z.literal('resync') });
const HeartbeatTriggerSchema = z.object({ kind: z.literal('heartbeat') });

/** OriginTriggerSchema is what started a run of requeues: a watch event, a resync or a heartbeat. */
export const OriginTriggerSchema = z.discriminatedUnion('kind', [EventTriggerSchema, ResyncTriggerSchema, HeartbeatTriggerSchema]);
export type OriginTrigger = z.infer<typeof OriginTriggerSchema>;

/** CauseTriggerSchema says what queued the key a loop is working on: a watch event, the
 * periodic resync, a requeue (after an error or a requested delay), a kubelet heartbeat, or a
 * kubelet stage whose delay ran out. A requeue or stage names the `origin` of the reconciles
 * that led to it, so a chain of causes survives reconciles that wrote nothing. */
export const CauseTriggerSchema = z.discriminatedUnion('kind', [
  EventTriggerSchema,
  ResyncTriggerSchema,
  z.object({ kind: z.literal('requeue'), reason: z.enum(['error', 'after']).optional(), origin: OriginTriggerSchema.optional() }),
  HeartbeatTriggerSchema,
  z.object({ kind: z.literal('stage'), origin: OriginTriggerSchema.optional() }),
]);
export type CauseTrigger = z.infer<typeof CauseTriggerSchema>;

/** CauseSchema is why a loop writes: which loop (`controller`), for which key, in which
 * reconcile (`reconcileId`, as in its log lines), and what queued that key. */
export const CauseSchema = z.object({
  controller: z.string().min(1),
  key: z.string(),
  reconcileId: z.string(),
  trigger: CauseTriggerSchema,
});
export type Cause = z.infer<typeof CauseSchema>;

/** HistoryActor is who made a change and why, as the API server recorded it: the request's
 * User-Agent, `fieldManager` parameter and bearer token (kubesim has no authentication, so
 * the token is a name), plus the Cause of a control loop's write. */
// A type alias, not an interface, so it fits the store's opaque Record<string, unknown>.
export type HistoryActor = {
  userAgent?: string;
  fieldManager?: string;
  user?: string;
  controller?: string;
  key?: string;
  reconcileId?: string;
  trigger?: CauseTrigger;
};

/** FieldChange is one field of a diff. `old` is absent for an added field, `new` for a
 * removed one. Paths are dotted; list items with a `type` or `name` key are addressed by it
 * (`status.conditions[type=Ready].status`), others by index. */
export interface FieldChange {
  path: string;
  old?: unknown;
  new?: unknown;
}

/** HistoryItem is one change in the history. `time` is the cluster time of the write. */
export interface HistoryItem {
  revision: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The storage resource, e.g. `deployments.apps`, `pods`. */
  resource: string;
  kind?: string;
  namespace: string;
  name: string;
  time: string;
  /** null for writes recorded before kubesim kept actors, and for the server's own writes. */
  actor: HistoryActor | null;
  diff: FieldChange[];
  /** The object after the change (with `includeObject=true`). */
  object?: Record<string, unknown>;
}

/** HistoryList is a page of history, oldest first. `metadata.continue` is the fromRevision
 * of the next page when the limit cut this one short. */
export interface HistoryList {
  apiVersion: typeof HISTORY_API_VERSION;
  kind: 'HistoryList';
  metadata: { resourceVersion: string; continue?: string };
  items: HistoryItem[];
}

/** decodeCause parses a header value made by encodeCause. Throws an Error naming the problem
 * for anything else (not JSON, or not a Cause). */
export function decodeCause(text: string): Cause {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  const parsed = CauseSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
