/**
 * The files the kubelet writes into every container: /etc/hosts (managed, with the pod's own
 * names and hostAliases), /etc/resolv.conf (cluster DNS for dnsPolicy ClusterFirst) and
 * /etc/hostname.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';

/** The cluster DNS Service's address and domain (kubeadm's and kind's defaults, inside the
 * API server's 10.96.0.0/12 service range). */
export const CLUSTER_DNS = '10.96.0.10';
export const CLUSTER_DOMAIN = 'cluster.local';
/** What a node's own resolver is (dnsPolicy Default). */
export const NODE_NAMESERVER = '10.0.0.2';

type ReadonlyPod = DeepReadonly<Pod>;

/** podHostname: spec.hostname or the pod name, the FQDN with setHostnameAsFQDN, at most 63 characters. */
export function podHostname(pod: ReadonlyPod): string {
  const name = (pod.spec?.hostname || pod.metadata?.name || 'localhost').slice(0, 63);
  if (pod.spec?.setHostnameAsFQDN && pod.spec.subdomain) return podFqdn(pod) ?? name;
  return name;
}

function podFqdn(pod: ReadonlyPod): string | undefined {
  if (!pod.spec?.subdomain) return undefined;
  const name = (pod.spec.hostname || pod.metadata?.name || '').slice(0, 63);
  return `${name}.${pod.spec.subdomain}.${pod.metadata?.namespace ?? 'default'}.svc.${CLUSTER_DOMAIN}`;
}

export function hostsFile(pod: ReadonlyPod): string {
  const lines = [
    '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
  ];
  const status = (pod.status ?? {}) as { podIPs?: ReadonlyArray<{ ip?: string }>; podIP?: string };
  const ips = status.podIPs?.map((entry) => entry.ip).filter((ip): ip is string => !!ip) ?? (status.podIP ? [status.podIP] : []);
  const hostname = (pod.spec?.hostname || pod.metadata?.name || '').slice(0, 63);
  const fqdn = podFqdn(pod);
  for (const ip of ips) lines.push(fqdn ? `${ip}\t${fqdn}\t${hostname}` : `${ip}\t${hostname}`);
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length > 0) {
    lines.push('', '# Entries added by HostAliases.');
    for (const alias of aliases) lines.push(`${alias.ip}\t${(alias.hostnames ?? []).join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

interface DnsConfig {
  nameservers?: string[];
  searches?: string[];
  options?: Array<{ name: string; value?: string }>;
}

/** resolvConf: what the kubelet writes for the pod's dnsPolicy, merged with its dnsConfig. */
export function resolvConf(pod: ReadonlyPod): string {
  const namespace = pod.metadata?.namespace ?? 'default';
  let policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  if (policy === 'ClusterFirst' && pod.spec?.hostNetwork) policy = 'Default';
  if (policy === 'ClusterFirstWithHostNet') policy = 'ClusterFirst';
  let nameservers: string[] = [];
  let searches: string[] = [];
  let options: Array<{ name: string; value?: string }> = [];
  if (policy === 'ClusterFirst') {
    nameservers = [CLUSTER_DNS];
    searches = [`${namespace}.svc.${CLUSTER_DOMAIN}`, `svc.${CLUSTER_DOMAIN}`, CLUSTER_DOMAIN];
    options = [{ name: 'ndots', value: '5' }];
  } else if (policy === 'Default') nameservers = [NODE_NAMESERVER];
  const extra = (pod.spec?.dnsConfig ?? {}) as DnsConfig;
  nameservers = [...new Set([...nameservers, ...(extra.nameservers ?? [])])];
  searches = [...new Set([...searches, ...(extra.searches ?? [])])];
  for (const option of extra.options ?? []) {
    options = options.filter((existing) => existing.name !== option.name);
    options.push(option);
  }
  const lines: string[] = [];
  if (searches.length > 0) lines.push(`search ${searches.join(' ')}`);
  for (const server of nameservers) lines.push(`nameserver ${server}`);
  if (options.length > 0) lines.push(`options ${options.map((o) => (o.value === undefined ? o.name : `${o.name}:${o.value}`)).join(' ')}`);
  return `${lines.join('\n')}\n`;
}
