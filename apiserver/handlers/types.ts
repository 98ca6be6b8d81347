/** The request and response shapes shared by the resource handlers. */

import type { AdmissionChain } from '../admission/chain.js';
import type { HistoryActor } from '../api/kubesim/history.js';
import type { WatchHandoffLedger } from '../api/machinery/watch-handoff.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import type { TokenService } from '../authn/token-service.js';
import type { UserInfo } from '../authz/user.js';
import type { RegistryContext, Target } from '../registry/context.js';
import type { Query } from '../request/query.js';
import type { ResourcePath } from '../routes/resource-path.js';

/** ApiRequest is one request against a resolved resource path. */
export interface ApiRequest {
  method: string;
  path: ResourcePath;
  query: Query;
  accept: string | undefined;
  contentType: string | undefined;
  body: Buffer | undefined;
  /** The User-Agent header: its product part names the field manager of writes that do
   * not pass `fieldManager`. */
  userAgent?: string;
  /** Who is writing and why (apiserver/kubesim/actor.ts); set on writes, recorded with the
   * change through the handler context's `actor`. */
  actor?: HistoryActor;
  /** Who made the request (authentication's answer, impersonation applied). */
  user?: UserInfo;
  /** A watch's handoff id (WATCH_HANDOFF_HEADER), sent by kubesim's own in-process clients. */
  watchHandoff?: string;
}

/** A handler answers at once, or later when an admission plugin answers asynchronously. */
export type MaybeAsyncResponse = ApiResponse | Promise<ApiResponse>;

/** ApiResponse is a JSON reply; `warnings` become `Warning: 299` headers. */
export interface ApiResponse {
  status: number;
  body: unknown;
  warnings?: string[];
  contentType?: string;
}

/**
 * VirtualSource computes the objects of a kind whose definition says `source: 'virtual'`
 * (metrics.k8s.io) at read time. Objects returned are fresh (the handlers may hand them
 * out as they are) and complete (apiVersion, kind, metadata.name and, for namespaced kinds,
 * metadata.namespace). Must not throw for an unknown namespace or name.
 */
export interface VirtualSource {
  /** The objects in `namespace`, or in every namespace when it is '' (and for cluster-scoped kinds). */
  list(namespace: string): KubeObject[];
  /** One object, or undefined when there is none (a 404 worded as for stored objects). May
   * throw an ApiError to word the 404 its own way (metrics-server's messages). */
  get(namespace: string, name: string): KubeObject | undefined;
}

/** HandlerContext is what the resource handlers read: the registry context plus the virtual
 * sources, keyed by their definitions' `storage.resource`. */
export interface HandlerContext extends RegistryContext {
  virtual?: ReadonlyMap<string, VirtualSource>;
  /** The admission chain every REST write passes (apiserver/admission/chain.ts). */
  admission?: AdmissionChain;
  /** Service-account tokens: TokenRequest signs with it, TokenReview checks through it. */
  tokens?: TokenService;
  /** The server authenticates its callers (security.authenticators given): the reviews then
   * answer for the request's user rather than for the all-powerful user of an open server. */
  authenticates?: boolean;
  /** Counts watch frames in-process informers have not handled yet (settle waits for them). */
  watchHandoffs?: WatchHandoffLedger;
}

/** targetOf names the object a request addresses; throws if the path has no name. */
export function targetOf(path: ResourcePath): Target {
  if (path.name === undefined) throw new Error('targetOf needs a path with a name');
  return { def: path.def, namespace: path.namespace, name: path.name };
}

/** listKind is the kind of a collection of `def` objects. */
export function listKind(def: ResourceDefinition): string {
  return `${def.kind}List`;
}
