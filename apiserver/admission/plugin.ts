/**
 * The admission chain's contract, as kube-apiserver's admission.Interface: after a write is
 * decoded and defaulted, every mutating plugin may change the object (in order: the built-in
 * plugins, then MutatingAdmissionWebhook); then the object is validated; then every validating
 * plugin may reject it (the built-in ones, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook);
 * then it is written. A plugin rejects by throwing an ApiError (Forbidden, Invalid, ...).
 * Plugins may be asynchronous (webhooks are HTTP calls).
 */
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import type { UserInfo } from '../authz/user.js';
import type { RegistryContext } from '../registry/context.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** AdmissionAttributes describe one write (kube-apiserver's admission.Attributes). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The served kind the request addressed (its group, version, kind and plural resource). */
  def: ResourceDefinition;
  /** '' for the main resource; 'status', 'scale', 'binding', 'eviction', ... */
  subresource: string;
  /** '' for cluster-scoped kinds. */
  namespace: string;
  /** May be '' on a create with generateName (admission runs before the name is drawn). */
  name: string;
  /** The new object (create, update); mutating plugins change it in place or replace it. */
  object?: KubeObject;
  /** The stored object (update, delete). */
  oldObject?: KubeObject;
  /** The request's options object (CreateOptions, UpdateOptions, DeleteOptions), when it has one. */
  options?: Record<string, unknown>;
  user: UserInfo;
  dryRun: boolean;
}

/** What a plugin may add to the response besides accepting or rejecting. */
export interface AdmissionResult {
  /** Sent back as `Warning: 299` headers (kubectl prints `Warning: ...`). */
  warnings: string[];
  /** Recorded for audit ("plugin-name/key" → value). */
  auditAnnotations: Record<string, string>;
}

export interface AdmissionPlugin {
  /** kube-apiserver's plugin name (NamespaceLifecycle, LimitRanger, PodSecurity, ...). */
  readonly name: string;
  /** Whether the plugin looks at this write at all (kube's Handles(operation), narrowed to a
   * kind): the chain skips the plugin — and, when no plugin handles a write, builds no
   * attributes and awaits nothing. Called once per write and plugin, so it must be cheap and
   * allocation-free; omitted means every write. */
  handles?(operation: AdmissionOperation, def: ResourceDefinition, subresource: string): boolean;
  /** Mutating phase: may change `attributes.object`. */
  admit?(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): void | Promise<void>;
  /** Validating phase: may only accept or reject (and warn). */
  validate?(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): void | Promise<void>;
}
