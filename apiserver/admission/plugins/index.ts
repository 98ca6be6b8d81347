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
import { createPodSecurity } from './pod-security.js';
import type { PodSecurityConfiguration } from './pod-security-config.js';
import { priority } from './priority.js';
import { resourceQuota } from './resource-quota.js';
import { runtimeClass } from './runtime-class.js';

/** builtInAdmissionPlugins returns a fresh list: a server may add or drop plugins. The
 * authorizer is the server's (ValidatingAdmissionPolicy's `authorizer` variable asks it);
 * `podSecurity` is PodSecurity's configuration (defaults and exemptions; kube's when absent). */
export function builtInAdmissionPlugins(options: { authorizer: Authorizer; podSecurity?: PodSecurityConfiguration }): AdmissionPlugin[] {
  return [
    namespaceLifecycle,
    limitRanger,
    // ServiceAccount: not yet (the `default` name is set by pod defaulting today).
    nodeRestriction,
    // TaintNodesByCondition
    priority,
    // DefaultTolerationSeconds: done by pod defaulting today (apiserver/api/core/pod-defaults.ts).
    // DefaultStorageClass
    // StorageObjectInUseProtection
    runtimeClass,
    // DefaultIngressClass
    createPodSecurity(options.podSecurity),
    mutatingAdmissionWebhook,
    createValidatingAdmissionPolicy({ authorizer: options.authorizer }),
    validatingAdmissionWebhook,
    resourceQuota, // Last: its check and charge share the store write's synchronous block.
  ];
}
