/**
 * ResourceDefinition describes one served kind at one group/version: names, scope, zod
 * schema, defaulting, extra validation, printer columns, field selectors, subresources and
 * storage. The registry lists a group's versions in preference order (autoscaling/v2
 * before autoscaling/v1). Routes, discovery, OpenAPI, Tables and clients are all derived from these
 * definitions, and so is each kind's behaviour (strategy hooks, protobuf table, live-view
 * interest): adding a kind is one file plus one line in its group's list
 * (docs/adding-a-kind.md).
 */

import type { z } from 'zod';
import type { Authorizer, UserInfo } from './authorization/authorizer-types.js';
import type { MessageType } from './protobuf/message-type.js';
import type { SchemaDocument } from './schema-node.js';

/** KubeObject is the loose shape every stored object has. Code that knows the kind uses
 * the kind's own `z.infer` type instead. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    generateName?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }>;
    finalizers?: string[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** NameRule names the validator a kind applies to metadata.name (validation.ts validateName). */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment' | 'ip-address';

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

/** PrintContext is what a table cell may depend on besides the object: the current time
 * (for AGE columns, computed server-side as kube-apiserver does). */
export interface PrintContext {
  nowMs: number;
}

/** PrintColumn is one column of the server-side Table (`kubectl get`). priority 1 columns
 * are shown only with `-o wide`. `cell` must not throw on partially filled objects. */
export interface PrintColumn {
  name: string;
  type: ColumnType;
  format?: string;
  description: string;
  priority: 0 | 1;
  // biome-ignore lint/suspicious/noExplicitAny: each kind's columns take that kind's object ((d: Deployment) => …); KubeObject here would reject them
  cell: (object: any, context: PrintContext) => string | number | boolean | null;
}

/** FieldError is one validation problem, worded as Kubernetes' field.Error:
 * `field` is a dotted path (spec.template.spec.containers[0].name). */
export interface FieldError {
  type:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueForbidden'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueTypeInvalid'
    | 'FieldValueNotFound';
  field: string;
  /** The offending value, quoted in the message as Kubernetes does (omitted for Required;
   * leaving the key out omits it from any error, as field.OmitValue does). */
  value?: unknown;
  detail?: string;
}

/** GoLiteral is a FieldError value that Kubernetes quotes as a Go struct literal (`%#v`),
 * e.g. `rbac.RoleRef{APIGroup:"…", Kind:"Role", Name:"x"}`: messages repeat `text` as is. */
export class GoLiteral {
  constructor(readonly text: string) {}
}

export interface ScaleSubresource {
  /** Dotted path of the desired replica count in the object, e.g. `spec.replicas`. */
  specReplicasPath: string;
  statusReplicasPath: string;
  /** Dotted path of the label selector (structured LabelSelector or string). */
  labelSelectorPath?: string;
  /** The selector at labelSelectorPath is a plain label map (core/v1 ReplicationController),
   * every pair of which must match. */
  labelSelectorIsMap?: boolean;
}

export interface Subresources {
  /** The object has a status that only the /status subresource writes. */
  status?: boolean;
  scale?: ScaleSubresource;
  /** Extra subresources served by dedicated handlers (pods/binding, pods/log, ...). */
  extra?: string[];
}

/** StorageMapping says where a kind's objects live and how this served version converts
 * to and from the stored version (e.g. autoscaling/v1 HPAs are stored as autoscaling/v2). */
export interface StorageMapping {
  /** The store's resource key, shared by all served versions: `deployments.apps`, `pods`. */
  resource: string;
  /** Converts an object of this served version into the storage version. Identity if absent. */
  toStorage?: (object: KubeObject) => KubeObject;
  /** Converts a stored object into this served version. Identity if absent. */
  fromStorage?: (object: KubeObject) => KubeObject;
}

/**
 * KindRef is a kind's identity: what a client needs to address it. Each built-in kind's
 * identity is written once in kind-refs.ts and spread into its ResourceDefinition; control
 * loops use the KindRef, so that their processes never load zod or the kinds' schemas.
 */
export interface KindRef<T extends KubeObject = KubeObject> {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Type only, never set: carries T, the object type of the kind's requests. */
  readonly objectType?: T;
}

export interface ResourceDefinition<T extends KubeObject = KubeObject> extends KindRef<T> {
  singular: string;
  shortNames: string[];
  categories: string[];
  /** How metadata.name is validated; 'dns1123-subdomain' when absent. */
  nameRule?: NameRule;
  /** Full object schema (apiVersion, kind, metadata, spec, status): parses input, applies
   * zod defaults, strips unknown fields. Its `.meta({ id })` is the OpenAPI definition name. */
  schema: z.ZodType<T>;
  /** The JSON-schema document published for the kind (OpenAPI, `kubectl explain`) and walked
   * by patches, server-side apply and unknown-field detection, when it is not the one derived
   * from `schema`: a custom resource's document comes from its CRD. See schemaDocumentFor. */
  openApiSchema?: SchemaDocument;
  /** Objects are kept as sent, as kube-apiserver keeps custom resources (unstructured): `null`
   * values outside metadata reach `defaults` and `validate` (which keep them for nullable
   * fields), a status subresource starts absent rather than `{}`, and strategic merge patch
   * is not accepted (415). */
  unstructured?: boolean;
  /** Defaulting that zod `.default()` cannot express (depends on other fields). Mutates a
   * private copy; must be idempotent. */
  defaults?: (object: T) => void;
  /** Semantic validation beyond the schema's types. Pure. `old` is set on update, and
   * `subresource` on an update through one (status, approval, finalize). */
  validate?: (object: T, old?: T, subresource?: string) => FieldError[];
  /** How the kind departs from the generic create/update/delete flow (see KindStrategy);
   * the generic flow when absent. */
  strategy?: KindStrategy;
  /** `metadata.generation` is maintained: 1 on create, +1 on every spec change. */
  tracksGeneration: boolean;
  subresources: Subresources;
  /** Status given on create is kept (Nodes: the kubelet registers with status); otherwise a
   * kind with a status subresource starts from an empty status that `defaults` may fill. */
  keepStatusOnCreate?: boolean;
  printColumns: PrintColumn[];
  /** Field selectors beyond metadata.name / metadata.namespace: field path → value getter. */
  fieldSelectors?: Record<string, (object: T) => string | undefined>;
  /** Verbs served; all of get, list, watch, create, update, patch, delete, deletecollection by
   * default. Requests for a verb not listed are answered 405 MethodNotAllowed. */
  verbs?: string[];
  /** Where objects come from: the store (default), or — `virtual` — a provider the server
   * registers under `storage.resource` that computes them on each read (metrics.k8s.io,
   * gathered from the kubelets). Virtual kinds are never stored and serve only get/list. */
  source?: ResourceSource;
  /** Sent as a `Warning` header with every response about the kind, as kube-apiserver does
   * for deprecated resources (`v1 ComponentStatus is deprecated in v1.19+`). */
  deprecationWarning?: string;
  /** For `source: 'review'` kinds (TokenReview, SubjectAccessReview, ...): fills in the status
   * the POST answers with, from the validated request. Nothing is stored. */
  answer?: (object: T, namespace: string | undefined, context: ReviewContext) => T;
  /** The kind's protobuf message (k8s.io/api generated.proto): objects may then arrive as
   * `application/vnd.kubernetes.protobuf` bodies, as kubectl ≥ 1.32's typed clients send
   * them. JSON and YAML only when absent. builtin-protobuf.test.ts checks it against `schema`
   * both ways. */
  protobuf?: MessageType;
  /** The live view (apiserver/ui) draws the kind's objects in its graph under this name. */
  liveView?: LiveViewKind;
  storage: StorageMapping;
}

/** ReviewTokenStatus is a TokenReview's status as the server's token authenticators fill it. */
export interface ReviewTokenStatus {
  authenticated?: boolean;
  user: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

/** ReviewContext: what a review kind's `answer` may know of the request and the server — who
 * makes it, the server's authorizer (access reviews) with the rules it grants a user (rules
 * reviews), and its token checks (TokenReview). */
export interface ReviewContext {
  /** The request's user, impersonation applied (system:anonymous on a server that
   * authenticates nobody). */
  user: UserInfo;
  /** The server authenticates its callers; when false every caller is all-powerful, and
   * SelfSubjectReview answers as the cluster's admin. */
  authenticates: boolean;
  authorizer: Authorizer;
  /** The rules the authorizer chain grants a user in a namespace (SelfSubjectRulesReview). */
  rulesFor(user: UserInfo, namespace: string): GrantedRules;
  /** Checks a bearer token as the server's authenticators do; `audiences` default to the
   * API server's. Absent when the server checks no tokens. */
  reviewToken?: (token: string, audiences: readonly string[] | undefined) => ReviewTokenStatus;
}

/** GrantedRules: what SelfSubjectRulesReview reports (authorizer.RuleResolver's answer). */
export interface GrantedRules {
  rules: Array<{ verbs?: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] }>;
  incomplete: boolean;
  evaluationError?: string;
}

/** LiveViewKind is the live view's name for a kind its page knows how to draw. */
export type LiveViewKind = 'pods' | 'nodes' | 'deployments' | 'replicasets' | 'services' | 'endpointslices' | 'hpas';

/**
 * Strategies. KindStrategy holds the few places where a kind's lifecycle departs from the generic
 * create/update/delete flow, as kube-apiserver's per-resource REST strategies
 * (RESTCreateStrategy, RESTUpdateStrategy, RESTDeleteStrategy) do: Services allocate cluster
 * IPs, Pods are deleted gracefully, Namespaces terminate instead of vanishing. It is a field
 * of the kind's ResourceDefinition (`strategy`), so everything a kind does is in one place.
 *
 * Why hooks receive a StrategyContext: apiserver/api imports nothing outside itself (the
 * store, the server's random streams live elsewhere), so a hook cannot reach them directly.
 * The registry passes in the little a hook may use, the arrow keeps pointing from the server
 * to the API types, and the hook can still be written next to its kind's schema. A hook that
 * needs server code the API package cannot hold (the CRD strategy, which compiles schemas) is
 * attached to its definition where the server assembles its registry (apiserver/server-definitions.ts).
 */

/** StrategyContext is what a strategy hook may read of the server. */
export interface StrategyContext {
  /** Every stored object of a storage resource (`services`), in all namespaces. */
  listStored(resource: string): KubeObject[];
  /** An integer in [0, n) from the server's random stream for `purpose`; each purpose has
   * its own stream so a seeded server's other choices do not shift. */
  randomInt(purpose: 'clusterIp' | 'nodePort', n: number): number;
  /** Milliseconds since the epoch; the cluster clock. */
  now(): number;
  /** Adds a warning to the response (a `Warning:` header), when the write has a client. */
  warn?(message: string): void;
}

/** DeleteRequest is a decoded DeleteOptions (body and query). */
export interface DeleteRequest {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

/** KindStrategy knows how one kind departs from the generic create/update/delete flow.
 * Hooks mutate the object they are given (a private copy) and may throw ApiError. */
export interface KindStrategy {
  /** After defaulting, before validation, on create (allocate cluster IPs, node ports). */
  beforeCreate?(object: KubeObject, ctx: StrategyContext): void;
  /** After defaulting, before validation, on update (`subresource` set for /status, /approval, ...). */
  beforeUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext, subresource?: string): void;
  /** The grace period of a graceful deletion, or undefined to delete without grace. */
  gracePeriodSeconds?(object: KubeObject, request: DeleteRequest): number | undefined;
  /** Extra conditions for an object marked for deletion to be removed (Namespace: spec.finalizers empty). */
  canBeRemoved?(object: KubeObject): boolean;
  /** Called when an object is first marked for deletion (Namespace: phase Terminating). */
  onMarkedForDeletion?(object: KubeObject): void;
  /** DELETE answers with the deleted object instead of a Status (Pods, Namespaces). */
  returnDeletedObject?: boolean;
  /** Before a DELETE of one object by name (not deletecollection), as a REST storage's Delete
   * override: may refuse it by throwing an ApiError (the system PriorityClasses). */
  beforeDelete?(name: string): void;
}

/** AnyResourceDefinition is a definition of some kind, for collections that hold many kinds
 * (a group's list, the registry). Its callbacks take the kind's own T, so a
 * ResourceDefinition<Pod> is not a ResourceDefinition<KubeObject>; `any` lets each keep its T. */
// biome-ignore lint/suspicious/noExplicitAny: the existential "some T" of a heterogeneous collection, as explained above
export type AnyResourceDefinition = ResourceDefinition<any>;

/** AnyKindRef is a KindRef of some kind (see AnyResourceDefinition for why `any`). */
// biome-ignore lint/suspicious/noExplicitAny: as for AnyResourceDefinition
export type AnyKindRef = KindRef<any>;

/** ResourceSource says where a kind's objects come from (see ResourceDefinition.source). */
export type ResourceSource = 'store' | 'virtual' | 'review';

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

/** apiVersionOf returns `group/version`, or just `version` for the core group. */
export function apiVersionOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** qualifiedResource is how Kubernetes names a resource in messages: `deployments.apps`, `pods`. */
export function qualifiedResource(def: Pick<ResourceDefinition, 'group' | 'plural'>): string {
  return def.group ? `${def.plural}.${def.group}` : def.plural;
}
