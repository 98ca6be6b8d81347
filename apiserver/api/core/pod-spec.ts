/**
 * core/v1 PodSpec and PodTemplateSpec, shared by Pod and every workload kind (Deployment,
 * ReplicaSet, Job, ...). Defaulting (pod-spec-defaults.ts) and validation
 * (pod-spec-validation.ts) live next door and import these types; this module imports
 * neither, so the schema has no import circle with them.
 */
import { z } from 'zod';
import { ObjectMetaSchema, StringMapSchema } from '../meta.js';
import { mergeByKey, mergeByKeyRetainKeys } from '../patch-meta.js';
import { AffinitySchema, TolerationSchema, TopologySpreadConstraintSchema, topologySpreadListMeta } from './affinity.js';
import { ContainerSchema, EphemeralContainerSchema, ResourceRequirementsSchema } from './container.js';
import { LocalObjectReferenceSchema } from './object-reference.js';
import { ResourceListSchema } from './quantity.js';
import { enumOf, K8S_CORE, looseObject } from './schema-helpers.js';
import { VolumeSchema } from './volume.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'] as const;
export type RestartPolicy = (typeof RESTART_POLICIES)[number];
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'] as const;

export const HostAliasSchema = z
  .object({
    ip: z.string().describe('IP address of the host file entry.'),
    hostnames: z.array(z.string()).optional().describe('Hostnames for the IP address.'),
  })
  .meta({ id: `${K8S_CORE}.HostAlias`, description: "An entry added to the pod's /etc/hosts." });

export const PodReadinessGateSchema = z
  .object({ conditionType: z.string().describe('A pod condition type that must be True for the pod to be ready.') })
  .meta({ id: `${K8S_CORE}.PodReadinessGate` });

const containerList = <T extends z.ZodType>(item: T, description: string) => z.array(item).optional().meta(mergeByKey('name')).describe(description);

export const PodSpecSchema = z
  .object({
    volumes: z.array(VolumeSchema).optional().meta(mergeByKeyRetainKeys('name')).describe('Volumes that containers of the pod can mount.'),
    initContainers: containerList(ContainerSchema, 'Containers run to completion, one at a time, before the app containers start.'),
    containers: z.array(ContainerSchema).meta(mergeByKey('name')).describe('The app containers of the pod. At least one is required. Cannot be updated.'),
    ephemeralContainers: containerList(EphemeralContainerSchema, 'Debug containers added to a running pod through the ephemeralcontainers subresource.'),
    restartPolicy: enumOf(RESTART_POLICIES).optional().describe('Restart policy for the containers: Always, OnFailure or Never. Defaults to Always.'),
    terminationGracePeriodSeconds: z.number().int().optional().describe('Seconds the pod is given to stop gracefully before it is killed. Defaults to 30.'),
    activeDeadlineSeconds: z.number().int().optional().describe('Seconds the pod may be active before the system fails it.'),
    dnsPolicy: enumOf(DNS_POLICIES).optional().describe('DNS policy of the pod. Defaults to ClusterFirst.'),
    dnsConfig: looseObject(`${K8S_CORE}.PodDNSConfig`, 'Extra DNS parameters, merged with those from dnsPolicy.').optional(),
    nodeSelector: StringMapSchema.optional().meta({ 'x-kubernetes-map-type': 'atomic' }).describe('Labels a node must have for the pod to be scheduled to it.'),
    serviceAccountName: z.string().optional().describe('Name of the ServiceAccount the pod runs as. Defaults to "default".'),
    serviceAccount: z.string().optional().describe('Deprecated alias of serviceAccountName.'),
    automountServiceAccountToken: z.boolean().optional().describe('Whether an API token is mounted automatically.'),
    nodeName: z.string().optional().describe('The node the pod is bound to. Set by the scheduler through the binding subresource.'),
    hostNetwork: z.boolean().optional().describe("Use the node's network namespace."),
    hostPID: z.boolean().optional().describe("Use the node's PID namespace."),
    hostIPC: z.boolean().optional().describe("Use the node's IPC namespace."),
    hostUsers: z.boolean().optional().describe("Use the node's user namespace."),
    shareProcessNamespace: z.boolean().optional().describe('Share one process namespace between the containers.'),
    securityContext: looseObject(`${K8S_CORE}.PodSecurityContext`, 'Pod-level security attributes.').optional(),
    imagePullSecrets: z
      .array(LocalObjectReferenceSchema)
      .optional()
      .meta(mergeByKey('name'))
      .describe('Secrets in the same namespace used to pull the images.'),
    hostname: z.string().optional().describe('Hostname of the pod; the pod name when empty.'),
    subdomain: z.string().optional().describe('With hostname, gives the pod the FQDN <hostname>.<subdomain>.<namespace>.svc.'),
    setHostnameAsFQDN: z.boolean().optional().describe('Use the FQDN as the hostname.'),
    affinity: AffinitySchema.optional().describe('Scheduling constraints.'),
    schedulerName: z.string().optional().describe('The scheduler that places the pod. Defaults to default-scheduler.'),
    tolerations: z.array(TolerationSchema).optional().describe('Taints the pod tolerates.'),
    hostAliases: z.array(HostAliasSchema).optional().meta(mergeByKey('ip')).describe('Entries added to /etc/hosts.'),
    priorityClassName: z.string().optional().describe('Name of the PriorityClass that gives the pod its priority.'),
    priority: z.int32().optional().describe('Priority value resolved from priorityClassName; higher is more important.'),
    preemptionPolicy: enumOf(['PreemptLowerPriority', 'Never'])
      .optional()
      .describe('Whether the pod may preempt lower-priority pods. Defaults to PreemptLowerPriority.'),
    readinessGates: z.array(PodReadinessGateSchema).optional().describe('Extra conditions that must be True for the pod to be ready.'),
    runtimeClassName: z.string().optional().describe('RuntimeClass used to run the pod.'),
    enableServiceLinks: z.boolean().optional().describe('Inject environment variables describing services. Defaults to true.'),
    overhead: ResourceListSchema.optional().describe('Resources consumed by the pod sandbox on top of the containers.'),
    topologySpreadConstraints: z
      .array(TopologySpreadConstraintSchema)
      .optional()
      .meta(topologySpreadListMeta)
      .describe('How matching pods are spread across topology domains.'),
    os: z
      .object({ name: z.string().describe('linux or windows.') })
      .meta({ id: `${K8S_CORE}.PodOS` })
      .optional()
      .describe('Operating system the pod requires.'),
    schedulingGates: z
      .array(z.object({ name: z.string() }).meta({ id: `${K8S_CORE}.PodSchedulingGate` }))
      .optional()
      .meta(mergeByKey('name'))
      .describe('While non-empty, the scheduler leaves the pod alone.'),
    resourceClaims: z
      .array(z.looseObject({ name: z.string() }).meta({ id: `${K8S_CORE}.PodResourceClaim` }))
      .optional()
      .meta(mergeByKeyRetainKeys('name'))
      .describe('Dynamic resources the pod uses.'),
    resources: ResourceRequirementsSchema.optional().describe('Pod-level resource requests and limits.'),
  })
  .meta({ id: `${K8S_CORE}.PodSpec`, description: 'PodSpec is the desired state of a pod: its containers, volumes and scheduling constraints.' });

export type PodSpec = z.infer<typeof PodSpecSchema>;

export const PodTemplateSpecSchema = z
  .object({
    metadata: ObjectMetaSchema.optional().describe('Metadata of the pods created from this template.'),
    spec: PodSpecSchema.describe('Desired state of the pods created from this template.'),
  })
  .meta({ id: `${K8S_CORE}.PodTemplateSpec`, description: 'PodTemplateSpec describes the pods a workload creates.' });

export type PodTemplateSpec = z.infer<typeof PodTemplateSpecSchema>;
