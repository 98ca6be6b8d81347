/**
 * The admission plugins the API server runs, in kube-apiserver's default order (its
 * AllOrderedPlugins, restricted to the default-enabled ones kubesim implements). Each phase
 * runs them in this order: every `admit`, then validation, then every `validate`.
 *
 * To add a plugin: write apiserver/admission/plugins/<name>.ts exporting an AdmissionPlugin,
 * and put it in its slot below (one line).
 */
import type { AdmissionPlugin } from '../plugin.js';
import { limitRanger } from './limit-ranger.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { nodeRestriction } from './node-restriction.js';
import { podSecurity } from './pod-security.js';
import { priority } from './priority.js';
import { resourceQuota } from './resource-quota.js';
import { runtimeClass } from './runtime-class.js';

/** builtInAdmissionPlugins returns a fresh list: a server may add or drop plugins. */
export function builtInAdmissionPlugins(): AdmissionPlugin[] {
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
    podSecurity,
    // MutatingAdmissionWebhook: the webhooks slice.
    // ValidatingAdmissionPolicy: the VAP slice.
    // ValidatingAdmissionWebhook: the webhooks slice.
    resourceQuota, // Last: its check and charge share the store write's synchronous block.
  ];
}
