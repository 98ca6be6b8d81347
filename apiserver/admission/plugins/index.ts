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
import { createCertificateApproval } from './certificate-approval.js';
import { createCertificateSigning } from './certificate-signing.js';
import { certificateSubjectRestriction } from './certificate-subject-restriction.js';
import { defaultIngressClass } from './default-ingress-class.js';
import { defaultStorageClass } from './default-storage-class.js';
import { limitRanger } from './limit-ranger.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { nodeRestriction } from './node-restriction.js';
import { persistentVolumeClaimResize } from './persistent-volume-claim-resize.js';
import { createPodSecurity } from './pod-security.js';
import type { PodSecurityConfiguration } from './pod-security-config.js';
import { priority } from './priority.js';
import { resourceQuota } from './resource-quota.js';
import { runtimeClass } from './runtime-class.js';
import { createServiceAccountAdmission } from './service-account.js';
import { createStorageObjectInUseProtection } from './storage-object-in-use-protection.js';
import { taintNodesByCondition } from './taint-nodes-by-condition.js';

export interface BuiltInAdmissionOptions {
  /** The server's (ValidatingAdmissionPolicy's `authorizer` variable asks it). */
  authorizer: Authorizer;
  /** The control loops the cluster runs (ServerOptions.clusterLoops); none when absent. */
  clusterLoops?: readonly string[];
  /** PodSecurity's configuration (defaults and exemptions; kube's when absent). */
  podSecurity?: PodSecurityConfiguration;
}

/** ADMISSION_LOOPS: the loop each loop-dependent plugin relies on, by catalog name. */
export const ADMISSION_LOOPS = {
  /** ServiceAccount refuses pods whose account is missing: this loop makes every namespace's `default`. */
  serviceAccount: 'serviceaccount',
  /** TaintNodesByCondition taints new nodes not-ready: this loop lifts the taint once a node is Ready. */
  nodeLifecycle: 'node-lifecycle',
  /** StorageObjectInUseProtection's finalizers: these loops lift them once a claim or volume is unused. */
  pvcProtection: 'pvc-protection',
  pvProtection: 'pv-protection',
} as const;

/** builtInAdmissionPlugins returns a fresh list: a server may add or drop plugins. */
export function builtInAdmissionPlugins(options: BuiltInAdmissionOptions): AdmissionPlugin[] {
  const runs = (loop: string) => options.clusterLoops?.includes(loop) ?? false;
  return [
    namespaceLifecycle,
    limitRanger,
    createServiceAccountAdmission({ requireExisting: runs(ADMISSION_LOOPS.serviceAccount) }),
    nodeRestriction,
    ...(runs(ADMISSION_LOOPS.nodeLifecycle) ? [taintNodesByCondition] : []),
    priority,
    // DefaultTolerationSeconds: done by pod defaulting today (apiserver/api/core/pod-defaults.ts).
    defaultStorageClass,
    ...storageProtection(runs(ADMISSION_LOOPS.pvcProtection), runs(ADMISSION_LOOPS.pvProtection)),
    persistentVolumeClaimResize,
    runtimeClass,
    createCertificateApproval({ authorizer: options.authorizer }),
    createCertificateSigning({ authorizer: options.authorizer }),
    // ClusterTrustBundleAttest: kubesim serves no ClusterTrustBundles.
    certificateSubjectRestriction,
    defaultIngressClass,
    createPodSecurity(options.podSecurity),
    mutatingAdmissionWebhook,
    createValidatingAdmissionPolicy({ authorizer: options.authorizer }),
    validatingAdmissionWebhook,
    resourceQuota, // Last: its check and charge share the store write's synchronous block.
  ];
}

/** StorageObjectInUseProtection, when the loop of either finalizer runs. */
function storageProtection(claims: boolean, volumes: boolean): AdmissionPlugin[] {
  return claims || volumes ? [createStorageObjectInUseProtection({ claims, volumes })] : [];
}
