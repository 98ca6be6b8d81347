/** core/v1 Node: a worker machine (here a simulated one, registered by kubelet-sim). */
import { z } from 'zod';
import { deepEqual } from '../deep-equal.js';
import { KIND_IDS } from '../kind-refs.js';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey, mergeScalars } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { duplicate, forbidden, invalid, isQualifiedName, isValidLabelValue } from '../validation.js';
import { TAINT_EFFECTS } from './affinity.js';
import { CONDITION_STATUSES } from './pod-status.js';
import { ResourceListSchema } from './quantity.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';

export const TaintSchema = z
  .object({
    key: z.string().describe('The taint key.'),
    value: z.string().optional().describe('The taint value.'),
    effect: enumOf(TAINT_EFFECTS).describe('What happens to pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute.'),
    timeAdded: TimeSchema.optional().describe('When a NoExecute taint was added.'),
  })
  .meta({ id: `${K8S_CORE}.Taint`, description: 'A taint repels pods that do not tolerate it.' });

export type Taint = z.infer<typeof TaintSchema>;

export const NodeSpecSchema = z
  .object({
    podCIDR: z.string().optional().describe('IP range assigned to the node for its pods.'),
    podCIDRs: z.array(z.string()).optional().meta(mergeScalars).describe('IP ranges assigned to the node; the first equals podCIDR.'),
    providerID: z.string().optional().describe('ID of the node assigned by the cloud provider.'),
    unschedulable: z.boolean().optional().describe('When true, no new pods are scheduled to the node (kubectl cordon).'),
    taints: z.array(TaintSchema).optional().describe('Taints of the node.'),
  })
  .meta({ id: `${K8S_CORE}.NodeSpec`, description: 'NodeSpec describes the attributes a node is created with.' });

export const NodeConditionSchema = z
  .object({
    type: z.string().describe('Ready, MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable.'),
    status: enumOf(CONDITION_STATUSES).describe('True, False or Unknown.'),
    lastHeartbeatTime: TimeSchema.optional().describe('Last time the kubelet reported the condition.'),
    lastTransitionTime: TimeSchema.optional().describe('Last time the condition changed status.'),
    reason: z.string().optional().describe('Machine-readable reason for the last transition.'),
    message: z.string().optional().describe('Human-readable details about the last transition.'),
  })
  .meta({ id: `${K8S_CORE}.NodeCondition`, description: "NodeCondition is one aspect of the node's health." });

export type NodeCondition = z.infer<typeof NodeConditionSchema>;

export const NodeAddressSchema = z
  .object({
    type: z.string().describe('Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.'),
    address: z.string().describe('The address.'),
  })
  .meta({ id: `${K8S_CORE}.NodeAddress`, description: 'An address of the node.' });

export const NodeSystemInfoSchema = z
  .object({
    machineID: z.string().optional(),
    systemUUID: z.string().optional(),
    bootID: z.string().optional(),
    kernelVersion: z.string().optional().describe('Kernel version (uname -r).'),
    osImage: z.string().optional().describe('OS image, e.g. Debian GNU/Linux 12 (bookworm).'),
    containerRuntimeVersion: z.string().optional().describe('Container runtime and version, e.g. containerd://1.7.0.'),
    kubeletVersion: z.string().optional().describe('Kubelet version.'),
    kubeProxyVersion: z.string().optional().describe('Deprecated kube-proxy version.'),
    operatingSystem: z.string().optional().describe('linux or windows.'),
    architecture: z.string().optional().describe('CPU architecture, e.g. amd64.'),
  })
  .meta({ id: `${K8S_CORE}.NodeSystemInfo`, description: 'Identifiers and versions reported by the node.' });

export const NodeStatusSchema = z
  .object({
    capacity: ResourceListSchema.optional().describe('Total resources of the node.'),
    allocatable: ResourceListSchema.optional().describe('Resources available to pods; the scheduler uses these.'),
    phase: z.string().optional().describe('Deprecated lifecycle phase of the node.'),
    conditions: z.array(NodeConditionSchema).optional().meta(mergeByKey('type')).describe('Current health conditions.'),
    addresses: z.array(NodeAddressSchema).optional().meta(mergeByKey('type')).describe('Addresses of the node.'),
    daemonEndpoints: z
      .object({ kubeletEndpoint: z.object({ Port: z.int32() }).optional() })
      .meta({ id: `${K8S_CORE}.NodeDaemonEndpoints` })
      .optional()
      .describe('Ports of daemons running on the node.'),
    nodeInfo: NodeSystemInfoSchema.optional().describe('General information about the node.'),
    images: z
      .array(z.object({ names: z.array(z.string()).optional(), sizeBytes: z.int32().optional() }).meta({ id: `${K8S_CORE}.ContainerImage` }))
      .optional()
      .describe('Images present on the node.'),
    volumesInUse: z.array(z.string()).optional().describe('Volumes attached and mounted on the node.'),
  })
  .meta({ id: `${K8S_CORE}.NodeStatus`, description: 'NodeStatus is the most recently observed state of a node.' });

export const NodeSchema = z
  .object({
    ...typeMetaFields('v1', 'Node'),
    spec: NodeSpecSchema.optional().describe('Attributes of the node.'),
    status: NodeStatusSchema.optional().describe('Most recently observed status of the node. Written by the kubelet.'),
  })
  .meta({ id: `${K8S_CORE}.Node`, description: 'Node is a worker machine that runs pods.' });

export type Node = z.infer<typeof NodeSchema>;

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

/** nodeRoles lists a node's roles from its node-role.kubernetes.io/<role> labels (and the
 * legacy kubernetes.io/role label), sorted and deduplicated. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(ROLE_LABEL_PREFIX) && key.length > ROLE_LABEL_PREFIX.length) roles.add(key.slice(ROLE_LABEL_PREFIX.length));
    else if (key === LEGACY_ROLE_LABEL && value) roles.add(value);
  }
  return [...roles].sort();
}

/** nodeStatusCell is Ready / NotReady (any other Ready status) / Unknown (no Ready
 * condition), plus ",SchedulingDisabled" for a cordoned node. */
export function nodeStatusCell(node: Node): string {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

const address = (node: Node, type: string) => node.status?.addresses?.find((a) => a.type === type)?.address || '<none>';
const info = (node: Node, key: 'osImage' | 'kernelVersion' | 'containerRuntimeVersion') => node.status?.nodeInfo?.[key] || '<unknown>';

/** validateNode checks the taints and, on update, that the pod CIDRs and provider ID, once
 * set, stay (ValidateNodeUpdate). Pure. */
function validateNode(node: Node, old?: Node): FieldError[] {
  const errors = validateTaints(node);
  if (!old) return errors;
  const oldCidrs = old.spec?.podCIDRs ?? [];
  if (oldCidrs.length > 0 && !deepEqual(oldCidrs, node.spec?.podCIDRs ?? [])) {
    errors.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  const oldProviderId = old.spec?.providerID;
  if (oldProviderId && oldProviderId !== node.spec?.providerID) {
    errors.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return errors;
}

/** validateTaints checks taint keys and values and that no key/effect pair repeats. */
function validateTaints(node: Node): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (node.spec?.taints ?? []).forEach((taint, i) => {
    const at = `spec.taints[${i}]`;
    errors.push(...isQualifiedName(taint.key).map((d) => invalid(`${at}.key`, taint.key, d)));
    if (taint.value) errors.push(...isValidLabelValue(taint.value).map((d) => invalid(`${at}.value`, taint.value, d)));
    const pair = `${taint.key}:${taint.effect}`;
    if (seen.has(pair)) errors.push({ ...duplicate(`${at}`, pair), detail: 'taints must be unique by key and effect pair' });
    seen.add(pair);
  });
  return errors;
}

export const nodeDefinition: ResourceDefinition<Node> = {
  ...KIND_IDS.node,
  singular: 'node',
  shortNames: ['no'],
  categories: [],
  schema: NodeSchema,
  // The kubelet registers its node with capacity, conditions and addresses already filled.
  keepStatusOnCreate: true,
  validate: validateNode,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Status', nodeStatusCell, { description: 'The status of the node.' }),
    column('Roles', (node: Node) => nodeRoles(node).join(',') || '<none>', { description: 'The roles of the node.' }),
    ageColumn,
    column('Version', (node: Node) => node.status?.nodeInfo?.kubeletVersion ?? '', { description: 'Kubelet version.' }),
    column('Internal-IP', (node: Node) => address(node, 'InternalIP'), { wide: true, description: 'First InternalIP address.' }),
    column('External-IP', (node: Node) => address(node, 'ExternalIP'), { wide: true, description: 'First ExternalIP address.' }),
    column('OS-Image', (node: Node) => info(node, 'osImage'), { wide: true, description: 'OS image reported by the node.' }),
    column('Kernel-Version', (node: Node) => info(node, 'kernelVersion'), { wide: true, description: 'Kernel version reported by the node.' }),
    column('Container-Runtime', (node: Node) => info(node, 'containerRuntimeVersion'), {
      wide: true,
      description: 'Container runtime version reported by the node.',
    }),
  ],
  fieldSelectors: {
    'spec.unschedulable': (node) => String(node.spec?.unschedulable ?? false),
  },
  liveView: 'nodes',
  storage: { resource: 'nodes' },
};
