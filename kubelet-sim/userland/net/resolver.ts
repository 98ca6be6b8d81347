/**
 * The C library's resolver inside a container (getaddrinfo as glibc and musl do it): IP
 * literals, then /etc/hosts, then DNS to the first nameserver of /etc/resolv.conf with its
 * search list and ndots. A nameserver that never answers costs `timeout` × `attempts` of
 * cluster time (5 s × 2 by default) before the lookup fails.
 */
import type { DnsRecord } from '../contract.js';
import type { ContainerState } from '../process.js';
import { textOf } from '../shell/streams.js';

export interface ResolvConf {
  readonly nameservers: readonly string[];
  readonly search: readonly string[];
  readonly ndots: number;
  readonly timeoutMs: number;
  readonly attempts: number;
}

/** readResolvConf parses the container's /etc/resolv.conf (a missing file: no nameserver). */
export function readResolvConf(container: ContainerState): ResolvConf {
  let text = '';
  try {
    text = textOf(container.fs.readFile('/etc/resolv.conf'));
  } catch {
    // no resolv.conf: the C library then asks 127.0.0.1, where nothing answers
  }
  const nameservers: string[] = [];
  let search: string[] = [];
  const options = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [keyword, ...words] = line.trim().split(/\s+/);
    if (keyword === 'nameserver' && words[0]) nameservers.push(words[0]);
    else if (keyword === 'search' || keyword === 'domain') search = words;
    else if (keyword === 'options') for (const word of words) options.set(word.split(':')[0]!, word.split(':')[1] ?? '');
  }
  const number = (name: string, fallback: number) => (options.has(name) && /^\d+$/.test(options.get(name)!) ? Number(options.get(name)) : fallback);
  return {
    nameservers: nameservers.length > 0 ? nameservers : ['127.0.0.1'],
    search,
    ndots: number('ndots', 1),
    timeoutMs: number('timeout', 5) * 1000,
    attempts: number('attempts', 2),
  };
}

/** hostsLookup: the address /etc/hosts gives a name (IPv4 only). */
export function hostsLookup(container: ContainerState, name: string): string | undefined {
  let text = '';
  try {
    text = textOf(container.fs.readFile('/etc/hosts'));
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [ip, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (ip?.includes('.') && names.some((n) => n.toLowerCase() === name.toLowerCase())) return ip;
  }
  return undefined;
}

/** searchCandidates: the names a resolver tries, in order, for `name` (a trailing dot: only itself). */
export function searchCandidates(name: string, conf: Pick<ResolvConf, 'search' | 'ndots'>): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const dots = name.split('.').length - 1;
  const searched = conf.search.map((domain) => `${name}.${domain}`);
  return dots >= conf.ndots ? [name, ...searched] : [...searched, name];
}

export type Resolution =
  | { readonly kind: 'address'; readonly ip: string }
  | { readonly kind: 'not-found' }
  /** No answer came within the resolver's timeouts (or `limitMs`, whichever is shorter). */
  | { readonly kind: 'timeout' };

export const isIPv4Literal = (text: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(text);

/** resolveHost finds the IPv4 address of `name` as getaddrinfo would. */
export async function resolveHost(container: ContainerState, name: string, signal: AbortSignal, limitMs = Number.POSITIVE_INFINITY): Promise<Resolution> {
  if (isIPv4Literal(name)) return { kind: 'address', ip: name };
  const fromHosts = hostsLookup(container, name);
  if (fromHosts) return { kind: 'address', ip: fromHosts };
  const conf = readResolvConf(container);
  const server = conf.nameservers[0]!;
  for (const candidate of searchCandidates(name, conf)) {
    const answer = await lookupA(container, server, candidate);
    if (answer === undefined) {
      await waitFor(container, Math.min(conf.timeoutMs * conf.attempts, limitMs), signal);
      return { kind: 'timeout' };
    }
    if (answer.length > 0) return { kind: 'address', ip: answer[0]!.data };
  }
  return { kind: 'not-found' };
}

/** lookupA: the A records of a name (following one CNAME inside the cluster); undefined when
 * the server never answers. */
async function lookupA(container: ContainerState, server: string, name: string): Promise<DnsRecord[] | undefined> {
  const reply = await container.network?.query(server, name, 'A');
  if (!reply || reply.kind === 'dropped') return undefined;
  const addresses = reply.records.filter((r) => r.type === 'A');
  if (addresses.length > 0 || reply.rcode !== 'NOERROR') return addresses;
  const cname = reply.records.find((r) => r.type === 'CNAME');
  if (!cname) return [];
  const followed = await container.network?.query(server, cname.data, 'A');
  return followed?.kind === 'answer' ? followed.records.filter((r) => r.type === 'A') : undefined;
}

/** waitFor waits `ms` of cluster time (a dropped packet's wait); returns early when stopped. */
export async function waitFor(container: ContainerState, ms: number, signal: AbortSignal): Promise<void> {
  if (!Number.isFinite(ms)) return;
  await container.clock.sleep(ms, signal).catch(() => undefined);
}
