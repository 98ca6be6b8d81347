/**
 * The shapes fault injection works with: a stored rule, the request facts a rule matches
 * against, and the record of one injected fault. The posted rule itself is rule-schema.ts.
 */
import type { FAULTS_API_VERSION, Fault, FaultErrorCode, FaultMatch } from './rule-schema.js';

export type { Fault, FaultErrorCode, FaultMatch, FaultRuleSpec } from './rule-schema.js';

/** FaultRule is a rule as the server keeps and lists it: the posted spec with its id,
 * ttlSeconds turned into expiresAt, and how often it has fired. */
export interface FaultRule extends FaultMatch, Fault {
  apiVersion: typeof FAULTS_API_VERSION;
  kind: 'FaultRule';
  id: string;
  count?: number;
  probability?: number;
  seed?: number;
  /** Cluster time (RFC 3339) after which the rule no longer fires. */
  expiresAt?: string;
  /** Cluster time the rule was added. */
  createdAt: string;
  status: FaultRuleStatus;
}

export interface FaultRuleStatus {
  /** How many times the rule has fired. */
  fired: number;
  /** False once the rule has fired `count` times or has expired. */
  active: boolean;
}

/** FaultRequest is what a rule matches against: one resource request, as the server resolved it. */
export interface FaultRequest {
  method: string;
  url: string;
  userAgent?: string;
  /** The bearer token (kubesim has no authentication; the token names the user), or system:anonymous. */
  user: string;
  /** The `fieldManager` parameter, else the User-Agent's product (the manager a write is recorded against). */
  fieldManager: string;
  /** get, list, watch, create, update, patch, delete or deletecollection. */
  verb: string;
  /** The plural resource name and its API group ('' for core). */
  resource: string;
  group: string;
  subresource?: string;
  /** '' for cluster-scoped kinds and all-namespaces collections. */
  namespace: string;
  name?: string;
  /** For a watch resuming after a revision (resourceVersion > 0, no initial events): that revision. */
  resumeRevision?: number;
}

/** InjectedEffect is one thing a rule did to one request or watch. */
export type InjectedEffect =
  | { type: 'error'; code: FaultErrorCode; retryAfterSeconds?: number; message?: string }
  | { type: 'latency'; latencyMs: number }
  | { type: 'compact' }
  | { type: 'closeWatch'; afterEvents?: number }
  | { type: 'refuseWatchResume'; resourceVersion: number }
  | { type: 'withholdBookmarks' };

/** InjectedFault records one firing of a rule. */
export interface InjectedFault {
  ruleId: string;
  /** Cluster time (RFC 3339). */
  time: string;
  request: Pick<FaultRequest, 'method' | 'url' | 'userAgent' | 'user' | 'verb'>;
  injected: InjectedEffect[];
}
