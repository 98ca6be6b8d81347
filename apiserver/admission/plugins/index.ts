/**
 * The admission plugins the API server runs, in kube-apiserver's default order (its
 * AllOrderedPlugins, restricted to the default-enabled ones kubesim implements). Each phase
 * runs them in this order: every `admit`, then validation, then every `validate`.
 *
 * To add a plugin: write apiserver/admission/plugins/<name>.ts exporting an AdmissionPlugin,
 * and put it in its slot below (one line).
 */
import type { Authorizer } from '../../authz/authorizer.js';
import type { AdmissionPlugin } from '../plugin.js';
import { createValidatingAdmissionPolicy } from '../policy/index.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from '../webhook/index.js';
import { limitRanger } from './limit-ranger.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { nodeRestriction } from './node-restriction.js';
import { podSecurity } from './pod-security.js';
import { priority } from './priority.js';
import { resourceQuota } from './resource-quota.js';
import { runtimeClass } from './runtime-class.js';
import { createServiceAccountAdmission } from './service-account.js';

export interface BuiltInAdmissionOptions {
  /** The server's (ValidatingAdmissionPolicy's `authorizer` variable asks it). */
  authorizer: Authorizer;
  /** ServiceAccount refuses pods whose account does not exist (ServerOptions.requireServiceAccounts). */
  requireServiceAccounts?: boolean;
}

/** builtInAdmissionPlugins returns a fresh list: a server may add or drop plugins. */
export function builtInAdmissionPlugins(options: BuiltInAdmissionOptions): AdmissionPlugin[] {
  return [
    namespaceLifecycle,
    limitRanger,
    createServiceAccountAdmission({ requireExisting: options.requireServiceAccounts ?? false }),
    nodeRestriction,
    // TaintNodesByCondition
    priority,
    // DefaultTolerationSeconds: done by pod defaulting today (apiserver/api/core/pod-defaults.ts).
    // DefaultStorageClass
    // StorageObjectInUseProtection
    runtimeClass,
    // DefaultIngressClass
    podSecurity,
    mutatingAdmissionWebhook,
    createValidatingAdmissionPolicy({ authorizer: options.authorizer }),
    validatingAdmissionWebhook,
    resourceQuota, // Last: its check and charge share the store write's synchronous block.
  ];
}
