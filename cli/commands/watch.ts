/**
 * `kubesim watch [kind[/name]] [-n ns] [-l selector]`: one line per change as the cluster
 * makes it — cluster time, who (the loop, or the user's client), what, and a short diff —
 * from the history API's stream (docs/history.md). Each loop keeps one colour.
 */
import type { HistoryItem } from '../../apiserver/api/kubesim/history.js';
import { expandShortFlags, type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { untilSignal } from '../signals.js';
import { followHistory, type HistoryParams } from './history-client.js';
import { actorName, describeChange, isLoopActor } from './history-format.js';

const flags: Record<string, FlagSpec> = {
  namespace: { type: 'string', description: 'only this namespace (-n); default: every namespace' },
  selector: { type: 'string', description: 'only objects with these labels, before or after the change (-l)' },
  kubeconfig: kubeconfigFlag,
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim watch [kind[/name]] [-n namespace] [-l selector] [flags]

Prints one line per change from now on: time, who made it, what changed. Without a kind,
Events and Leases (heartbeats) are left out. Ctrl-C stops.

Flags:
${formatFlagHelp(flags)}`;

/** QUIET_RESOURCES are left out when no kind is asked for: they change all the time. */
const QUIET_RESOURCES = new Set(['events', 'events.events.k8s.io', 'leases.coordination.k8s.io']);

/** watch runs `kubesim watch` (see usage) until Ctrl-C. */
export async function watch(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(expandShortFlags(argv, { n: 'namespace', l: 'selector' }), flags);
  if (parsed['help']) return void console.log(usage);
  if (positional.length > 1) throw new UsageError(`expected at most one kind[/name]\n\n${usage}`);
  const [kind, name] = (positional[0] ?? '').split('/');
  const params: HistoryParams = {
    resource: kind || undefined,
    name: name || undefined,
    namespace: parsed['namespace'] as string | undefined,
    labelSelector: parsed['selector'] as string | undefined,
  };
  const colour = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  const stop = untilSignal();
  let header = () => console.log(`${'TIME'.padEnd(12)}  ${'WHO'.padEnd(20)}  WHAT`);
  let fromRevision: number | undefined;
  while (!stop.signal.aborted) {
    let delivered = false;
    for await (const item of followHistory(String(parsed['kubeconfig']), { ...params, fromRevision }, stop.signal, header)) {
      header = () => undefined;
      delivered = true;
      fromRevision = item.revision + 1;
      if (!kind && QUIET_RESOURCES.has(item.resource)) continue;
      console.log(formatWatchLine(item, { colour }));
    }
    // The server may end a stream (a reader too slow for its buffer): resume after the last
    // change shown. A stream that ended before delivering anything is not retried.
    if (!stop.signal.aborted && !delivered) throw new Error('the server ended the history stream');
  }
}

/** formatWatchLine is one line of `kubesim watch`: `12:00:03.120  deployment      set replicaset …`. */
export function formatWatchLine(item: HistoryItem, options: { colour: boolean }): string {
  const time = item.time.slice(11, 23);
  const who = actorName(item.actor);
  const padded = who.padEnd(20);
  const shown = options.colour && isLoopActor(item.actor) ? `${colourOf(who)}${padded}\u001b[0m` : padded;
  return `${time}  ${shown}  ${describeChange(item)}`;
}

/** PALETTE is the ANSI colours loops are given; users' writes stay uncoloured, and red is
 * left out so no loop looks like an error. */
const PALETTE = [32, 33, 34, 35, 36, 92, 93, 94, 95, 96];

/** colourOf gives each loop name a fixed colour (the same in every run). */
export function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `\u001b[${PALETTE[hash % PALETTE.length]}m`;
}
