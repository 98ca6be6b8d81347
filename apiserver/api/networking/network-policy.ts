/**
 * networking.k8s.io/v1 NetworkPolicy: which traffic may reach (ingress) and leave (egress) the
 * pods its podSelector selects. kubesim simulates no pod network, so policies are stored,
 * validated and defaulted as kube-apiserver does, and enforced by nothing (as on a cluster
 * whose network plugin does not implement them).
 */
import { z } from 'zod';
import { formatLabelSelector } from '../labels.js';
import { IntOrStringSchema, LabelSelectorSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isValidPortName, isValidPortNum, notSupported, required, validateLabelSelector } from '../validation.js';
import { isStrictSubset, parseCidr, validateCidr } from './network-validation.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;
const POLICY_TYPES = ['Ingress', 'Egress'] as const;
const atomicList = { 'x-kubernetes-list-type': 'atomic' } as const;

const NetworkPolicyPortSchema = z
  .object({
    protocol: z.string().optional().describe('TCP (default), UDP or SCTP.'),
    port: IntOrStringSchema.optional().describe('A port number or a named port of the pod; all ports when unset.'),
    endPort: z.int32().optional().describe('With a numeric port, the last port of the range port..endPort.'),
  })
  .meta({ id: `${NETWORKING_V1}.NetworkPolicyPort`, description: 'NetworkPolicyPort describes a port to allow traffic on.' });

const IPBlockSchema = z
  .object({
    cidr: z.string().describe('The allowed range, e.g. "192.168.1.0/24" or "2001:db8::/64".'),
    except: z.array(z.string()).optional().describe('Ranges inside cidr that are not allowed.').meta(atomicList),
  })
  .meta({ id: `${NETWORKING_V1}.IPBlock`, description: 'IPBlock describes a particular CIDR that is allowed, minus exceptions.' });

const NetworkPolicyPeerSchema = z
  .object({
    podSelector: LabelSelectorSchema.optional().describe('Pods selected by labels (in the namespaces namespaceSelector selects, or the policy namespace).'),
    namespaceSelector: LabelSelectorSchema.optional().describe('Namespaces selected by labels.'),
    ipBlock: IPBlockSchema.optional().describe('An IP range. Excludes the other fields.'),
  })
  .meta({ id: `${NETWORKING_V1}.NetworkPolicyPeer`, description: 'NetworkPolicyPeer describes a peer to allow traffic to or from.' });

const portsField = z.array(NetworkPolicyPortSchema).optional().describe('Ports the traffic must use; any port when empty.').meta(atomicList);
const peersField = z.array(NetworkPolicyPeerSchema).optional().describe('Peers of the traffic; any peer when empty.').meta(atomicList);

const IngressRuleSchema = z
  .object({ ports: portsField, from: peersField })
  .meta({ id: `${NETWORKING_V1}.NetworkPolicyIngressRule`, description: 'NetworkPolicyIngressRule describes traffic allowed to the selected pods.' });

const EgressRuleSchema = z
  .object({ ports: portsField, to: peersField })
  .meta({ id: `${NETWORKING_V1}.NetworkPolicyEgressRule`, description: 'NetworkPolicyEgressRule describes traffic allowed out of the selected pods.' });

export const NetworkPolicySpecSchema = z
  .object({
    podSelector: LabelSelectorSchema.default(() => ({})).describe('Pods the policy applies to; every pod of the namespace when empty.'),
    ingress: z.array(IngressRuleSchema).optional().describe('Traffic allowed in.').meta(atomicList),
    egress: z.array(EgressRuleSchema).optional().describe('Traffic allowed out.').meta(atomicList),
    policyTypes: z
      .array(z.string())
      .optional()
      .describe('Ingress, Egress or both. Defaults to Ingress, plus Egress when egress rules are given.')
      .meta(atomicList),
  })
  .meta({ id: `${NETWORKING_V1}.NetworkPolicySpec`, description: 'NetworkPolicySpec provides the specification of a NetworkPolicy.' });

export const NetworkPolicySchema = z
  .object({
    ...typeMetaFields('networking.k8s.io/v1', 'NetworkPolicy'),
    spec: NetworkPolicySpecSchema.default(() => ({ podSelector: {} })).describe('Desired behavior of the NetworkPolicy.'),
  })
  .meta({ id: `${NETWORKING_V1}.NetworkPolicy`, description: 'NetworkPolicy describes what network traffic is allowed for a set of Pods.' });

export type NetworkPolicy = z.infer<typeof NetworkPolicySchema>;
type Port = z.infer<typeof NetworkPolicyPortSchema>;
type Peer = z.infer<typeof NetworkPolicyPeerSchema>;

/** defaultNetworkPolicy: ports default to TCP; policyTypes to Ingress, plus Egress with egress rules. */
function defaultNetworkPolicy(policy: NetworkPolicy): void {
  const { spec } = policy;
  for (const r of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const port of r.ports ?? []) port.protocol ??= 'TCP';
  if ((spec.policyTypes ?? []).length === 0) spec.policyTypes = (spec.egress ?? []).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

/** validateNetworkPolicy checks selectors, ports, peers and policy types (ValidateNetworkPolicySpec). */
export function validateNetworkPolicy(policy: NetworkPolicy, old?: NetworkPolicy): FieldError[] {
  const { spec } = policy;
  // CIDRs the stored policy already has stay allowed, as kube-apiserver lets them be.
  const existing = new Set((old ? peersOf(old) : []).flatMap((peer) => (peer.ipBlock ? [peer.ipBlock.cidr, ...(peer.ipBlock.except ?? [])] : [])));
  const errors = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  const rules = [
    ...(spec.ingress ?? []).map((r, i) => ({ at: `spec.ingress[${i}]`, ports: r.ports, peers: r.from, key: 'from' })),
    ...(spec.egress ?? []).map((r, i) => ({ at: `spec.egress[${i}]`, ports: r.ports, peers: r.to, key: 'to' })),
  ];
  for (const { at, ports, peers, key } of rules) {
    (ports ?? []).forEach((port, j) => errors.push(...validatePort(port, `${at}.ports[${j}]`)));
    (peers ?? []).forEach((peer, j) => errors.push(...validatePeer(peer, `${at}.${key}[${j}]`, existing)));
  }
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) return [...errors, invalid('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  types.forEach((type, i) => {
    if (!(POLICY_TYPES as readonly string[]).includes(type)) errors.push(notSupported(`spec.policyTypes[${i}]`, type, POLICY_TYPES));
  });
  return errors;
}

function peersOf(policy: NetworkPolicy): Peer[] {
  return [...(policy.spec.ingress ?? []).flatMap((r) => r.from ?? []), ...(policy.spec.egress ?? []).flatMap((r) => r.to ?? [])];
}

function validatePort(port: Port, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (port.protocol !== undefined && !(PROTOCOLS as readonly string[]).includes(port.protocol)) {
    errors.push(notSupported(`${field}.protocol`, port.protocol, PROTOCOLS));
  }
  const { port: value, endPort } = port;
  if (value === undefined) {
    if (endPort !== undefined) errors.push(invalid(`${field}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof value === 'number') {
    errors.push(...isValidPortNum(value).map((d) => invalid(`${field}.port`, value, d)));
    if (endPort !== undefined) {
      if (endPort < value) errors.push(invalid(`${field}.endPort`, endPort, 'must be greater than or equal to `port`'));
      errors.push(...isValidPortNum(endPort).map((d) => invalid(`${field}.endPort`, endPort, d)));
    }
  } else {
    if (endPort !== undefined) errors.push(invalid(`${field}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    errors.push(...isValidPortName(value).map((d) => invalid(`${field}.port`, value, d)));
  }
  return errors;
}

function validatePeer(peer: Peer, field: string, existingCidrs: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (peer.podSelector) errors.push(...validateLabelSelector(peer.podSelector, `${field}.podSelector`));
  if (peer.namespaceSelector) errors.push(...validateLabelSelector(peer.namespaceSelector, `${field}.namespaceSelector`));
  if (peer.ipBlock) errors.push(...validateIpBlock(peer.ipBlock, `${field}.ipBlock`, existingCidrs));
  const count = [peer.podSelector, peer.namespaceSelector, peer.ipBlock].filter((part) => part !== undefined).length;
  if (count === 0) errors.push({ ...required(field), detail: 'must specify a peer' });
  else if (count > 1 && peer.ipBlock) errors.push(forbidden(field, 'may not specify both ipBlock and another peer'));
  return errors;
}

function validateIpBlock(block: z.infer<typeof IPBlockSchema>, field: string, existingCidrs: Set<string>): FieldError[] {
  if (block.cidr === '') return [required(`${field}.cidr`)];
  const checked = (value: string, at: string) => (existingCidrs.has(value) ? [] : validateCidr(value, at));
  const errors = checked(block.cidr, `${field}.cidr`);
  const outer = parseCidr(block.cidr);
  if (!outer) return errors;
  (block.except ?? []).forEach((except, i) => {
    const at = `${field}.except[${i}]`;
    errors.push(...checked(except, at));
    const inner = parseCidr(except);
    if (inner && !isStrictSubset(inner, outer)) errors.push(invalid(at, except, 'must be a strict subset of `cidr`'));
  });
  return errors;
}

/** networkPolicyDefinition serves networking.k8s.io/v1 networkpolicies (netpol). */
export const networkPolicyDefinition: ResourceDefinition<NetworkPolicy> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['netpol'],
  categories: [],
  namespaced: true,
  schema: NetworkPolicySchema,
  defaults: defaultNetworkPolicy,
  validate: validateNetworkPolicy,
  tracksGeneration: true,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Pod-Selector', (policy: NetworkPolicy) => formatLabelSelector(policy.spec?.podSelector), {
      description: 'The pods the policy applies to; all pods of the namespace when empty.',
    }),
    ageColumn,
  ],
  storage: { resource: 'networkpolicies.networking.k8s.io' },
};
