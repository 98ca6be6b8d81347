/**
 * busybox nslookup (1.36, its own resolver): `nslookup [-type=T] [-timeout=S] NAME [SERVER]`.
 * A dotless name is asked under each search domain of /etc/resolv.conf (never alone, and ndots
 * is not read); a name with a dot is asked as it is. An A and an AAAA question go out for each;
 * each reply prints `Name:`/`Address:` lines, an empty answer prints nothing, an error `** server
 * can't find NAME: NXDOMAIN` (and the exit status becomes 1). An IP address asks for its PTR.
 */
import type { DnsReply } from '../../contract.js';
import { readResolvConf, waitFor } from '../../net/resolver.js';
import type { ProgramContext } from '../../process.js';

const USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,any\n';

export async function nslookup(context: ProgramContext): Promise<number> {
  let types: Array<'A' | 'AAAA'> = ['A', 'AAAA'];
  let timeoutMs = 5000;
  const operands: string[] = [];
  for (const arg of context.argv.slice(1)) {
    const option = /^-(type|querytype|timeout|t|retry|port|debug)(?:=(.*))?$/.exec(arg);
    if (!option && arg.startsWith('-')) {
      context.stderr.write(USAGE);
      return 1;
    }
    if (!option) operands.push(arg);
    else if (option[1] === 'type' || option[1] === 'querytype') {
      const type = (option[2] ?? '').toUpperCase();
      if (type !== 'A' && type !== 'AAAA') {
        context.stderr.write(`nslookup: invalid query type "${option[2] ?? ''}"\n`);
        return 1;
      }
      types = [type];
    } else if (option[1] === 'timeout' || option[1] === 't') timeoutMs = Number(option[2]) * 1000;
  }
  const [name, explicitServer] = operands;
  if (!name || operands.length > 2) {
    context.stderr.write(USAGE);
    return 1;
  }
  const conf = readResolvConf(context.container);
  const server = explicitServer ?? conf.nameservers[0]!;
  const queries = questions(name, types, conf.search);
  const replies: Array<{ name: string; reply: DnsReply | undefined }> = [];
  for (const query of queries) replies.push({ name: query.name, reply: await context.container.network?.query(server, query.name, query.type) });
  if (replies.every(({ reply }) => !reply || reply.kind === 'dropped')) {
    await waitFor(context.container, timeoutMs, context.signal);
    context.stdout.write(';; connection timed out; no servers could be reached\n\n');
    return 1;
  }
  let out = `Server:\t\t${server}\nAddress:\t${server}:53\n\n`;
  let status = 0;
  for (const { name: asked, reply } of replies) {
    if (!reply || reply.kind === 'dropped') continue;
    if (reply.rcode !== 'NOERROR') {
      out += `** server can't find ${asked}: ${reply.rcode}\n\n`;
      status = 1;
      continue;
    }
    for (const record of reply.records) {
      if (record.type === 'CNAME') out += `${record.name}\tcanonical name = ${record.data}\n`;
      else if (record.type === 'PTR') out += `${record.name}\tname = ${record.data}\n`;
      else out += `Name:\t${record.name}\nAddress: ${record.data}\n`;
    }
    out += '\n';
  }
  context.stdout.write(out);
  return status;
}

/** questions: busybox's queries, type by type, each under every search domain for a dotless name. */
function questions(name: string, types: ReadonlyArray<'A' | 'AAAA'>, search: readonly string[]): Array<{ name: string; type: 'A' | 'AAAA' | 'PTR' }> {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return [{ name: `${name.split('.').reverse().join('.')}.in-addr.arpa`, type: 'PTR' }];
  const names = name.includes('.') || search.length === 0 ? [name] : search.map((domain) => `${name}.${domain}`);
  return types.flatMap((type) => names.map((asked) => ({ name: asked, type })));
}
