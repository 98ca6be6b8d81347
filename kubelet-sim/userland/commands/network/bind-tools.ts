/**
 * BIND's nslookup and dig, as the DNS debugging images carry them (registry.k8s.io's
 * jessie-dnsutils, tutum/dnsutils). Unlike busybox, BIND's nslookup applies the search list
 * with ndots as the C library does and prints the first name that answers. dig asks exactly
 * the name given (no search unless +search); `+short` prints only the answers' data.
 */
import type { DnsRecord, DnsReply } from '../../contract.js';
import { readResolvConf, searchCandidates, waitFor } from '../../net/resolver.js';
import type { ProgramContext } from '../../process.js';
import { formatDate } from '../system.js';

/** The cluster DNS's record TTL (kubeadm's Corefile: `ttl 30`). */
const TTL = 30;
const NO_SERVERS = ';; connection timed out; no servers could be reached\n';

type QueryType = 'A' | 'AAAA' | 'PTR';

/** ask sends one question to the server; undefined when it never answers. */
async function ask(context: ProgramContext, server: string, name: string, type: QueryType): Promise<Extract<DnsReply, { kind: 'answer' }> | undefined> {
  const reply = await context.container.network?.query(server, name, type);
  return reply?.kind === 'answer' ? reply : undefined;
}

const reverseName = (ip: string) => `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
const isAddress = (text: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(text);

export async function bindNslookup(context: ProgramContext): Promise<number> {
  const [name, explicitServer] = context.argv.slice(1).filter((arg) => !arg.startsWith('-'));
  if (!name) {
    context.stderr.write('Usage: nslookup [-opt ...] host [server]\n');
    return 1;
  }
  const conf = readResolvConf(context.container);
  const server = explicitServer ?? conf.nameservers[0]!;
  const candidates = isAddress(name) ? [reverseName(name)] : searchCandidates(name, conf);
  let last: Extract<DnsReply, { kind: 'answer' }> | undefined;
  for (const candidate of candidates) {
    const reply = await ask(context, server, candidate, isAddress(name) ? 'PTR' : 'A');
    if (!reply) {
      await waitFor(context.container, conf.timeoutMs * conf.attempts, context.signal);
      context.stdout.write(`${NO_SERVERS}\n`);
      return 1;
    }
    last = reply;
    if (reply.rcode === 'NOERROR' && reply.records.length > 0) break;
  }
  let out = `Server:\t\t${server}\nAddress:\t${server}#53\n\n`;
  if (last?.rcode !== 'NOERROR' || last.records.length === 0) {
    // An empty answer (NODATA) is "No answer"; otherwise the last error stands for all names.
    const why = last?.rcode === 'NOERROR' ? `*** Can't find ${name}: No answer` : `** server can't find ${name}: ${last?.rcode ?? 'NXDOMAIN'}`;
    context.stdout.write(`${out}${why}\n\n`);
    return 1;
  }
  for (const record of last.records) {
    if (record.type === 'PTR') out += `${record.name}\tname = ${record.data}.\n`;
    else if (record.type === 'CNAME') out += `${record.name}\tcanonical name = ${record.data}.\n`;
    else out += `Name:\t${record.name}\nAddress: ${record.data}\n`;
  }
  context.stdout.write(`${out}\n`);
  return 0;
}

interface DigQuery {
  server?: string;
  name?: string;
  type: QueryType;
  short: boolean;
  search: boolean;
}

function parseDig(argv: readonly string[]): DigQuery | string {
  const query: DigQuery = { type: 'A', short: false, search: false };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('@')) query.server = arg.slice(1);
    else if (arg === '+short') query.short = true;
    else if (arg === '+search') query.search = true;
    else if (arg.startsWith('+')) continue;
    else if (arg === '-x' && argv[i + 1]) {
      query.name = reverseName(argv[++i]!);
      query.type = 'PTR';
    } else if (/^(a|aaaa|ptr)$/i.test(arg) && query.name) query.type = arg.toUpperCase() as QueryType;
    else if (arg.startsWith('-')) return `Invalid option: ${arg}`;
    else query.name = arg;
  }
  return query;
}

export async function dig(context: ProgramContext): Promise<number> {
  const query = parseDig(context.argv);
  if (typeof query === 'string') {
    context.stderr.write(`${query}\nUsage:  dig [@global-server] [domain] [q-type] [q-class] {q-opt}\n`);
    return 1;
  }
  const conf = readResolvConf(context.container);
  const server = query.server ?? conf.nameservers[0]!;
  const name = (query.name ?? '.').replace(/\.$/, '');
  const candidates = query.search ? searchCandidates(name, conf) : [name];
  let reply: Extract<DnsReply, { kind: 'answer' }> | undefined;
  let asked = candidates[0]!;
  for (const candidate of candidates) {
    asked = candidate;
    reply = await ask(context, server, candidate, query.type);
    if (!reply || (reply.rcode === 'NOERROR' && reply.records.length > 0)) break;
  }
  if (!reply) {
    // dig tries three times, five seconds each.
    await waitFor(context.container, 15_000, context.signal);
    context.stdout.write(
      query.short ? NO_SERVERS : `\n; <<>> DiG 9.9.5-9+deb8u19-Debian <<>> ${context.argv.slice(1).join(' ')}\n;; global options: +cmd\n${NO_SERVERS}`,
    );
    return 9;
  }
  context.stdout.write(query.short ? shortAnswer(reply.records) : fullAnswer(context, server, asked, query.type, reply));
  return 0;
}

const dataOf = (record: DnsRecord) => (record.type === 'A' || record.type === 'AAAA' ? record.data : `${record.data}.`);
const shortAnswer = (records: readonly DnsRecord[]) => records.map((record) => `${dataOf(record)}\n`).join('');

function fullAnswer(context: ProgramContext, server: string, name: string, type: QueryType, reply: Extract<DnsReply, { kind: 'answer' }>): string {
  const lines = [
    '',
    `; <<>> DiG 9.9.5-9+deb8u19-Debian <<>> ${context.argv.slice(1).join(' ')}`,
    ';; global options: +cmd',
    ';; Got answer:',
    `;; ->>HEADER<<- opcode: QUERY, status: ${reply.rcode}, id: ${context.container.clock.now() % 65536}`,
    `;; flags: qr aa rd; QUERY: 1, ANSWER: ${reply.records.length}, AUTHORITY: 0, ADDITIONAL: 0`,
    ';; WARNING: recursion requested but not available',
    '',
    ';; QUESTION SECTION:',
    `;${name}.\t\tIN\t${type}`,
    '',
  ];
  if (reply.records.length > 0) {
    lines.push(';; ANSWER SECTION:', ...reply.records.map((r) => `${r.name}.\t${TTL}\tIN\t${r.type}\t${dataOf(r)}`), '');
  }
  lines.push(
    ';; Query time: 0 msec',
    `;; SERVER: ${server}#53(${server})`,
    `;; WHEN: ${formatDate(context.container.clock.now(), '%a %b %d %H:%M:%S UTC %Y')}`,
    '',
    '',
  );
  return lines.join('\n');
}
