/** `kubesim chaos <action> [target]`: disturb a running `kubesim up` cluster on purpose and
 * say what convergence to expect (POST /apis/kubesim.io/v1alpha1/chaos; docs/live-view.md). */

import { CHAOS_PATH, type ChaosAction, type ChaosRequest, type ChaosResult } from '../../apiserver/api/kubesim/chaos.js';
import { parseDuration } from '../../apiserver/api/machinery/duration.js';
import { type FlagSpec, type Flags, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { call } from './component-control.js';

const flags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  for: { type: 'string', description: 'how long it lasts, in cluster time (30s, 2m)' },
  latency: { type: 'string', description: 'slow-api: latency added to each request (default 300ms)' },
  seed: { type: 'number', description: 'random: seed of the schedule (the answer names the one drawn when absent)' },
  every: { type: 'string', description: 'random: time between two disturbances (default 5s)' },
  help: { type: 'boolean', description: 'show this help' },
};

/** The command words and the actions they stand for (the API's own names work too). */
const ACTIONS: Record<string, ChaosAction> = {
  kill: 'kill-loop',
  'kill-loop': 'kill-loop',
  stop: 'stop-loop',
  'stop-loop': 'stop-loop',
  'cut-watches': 'cut-watches',
  partition: 'partition',
  'stop-node': 'stop-node',
  'start-node': 'start-node',
  'slow-api': 'slow-api',
  random: 'random',
};

const usage = `Usage: kubesim chaos <action> [target] [flags]

  kill <component>            SIGKILL the component's process; the supervisor restarts it
  stop <component> [--for D]  stop it (for D, else until \`kubesim start\`)
  cut-watches <component>     close its open watch streams
  partition <component> [--for D]   503 to every request it makes, its watches closed (default 30s)
  stop-node <node> [--for D]  stop the node's kubelet (for D, else until start-node)
  start-node <node>           start it again
  slow-api [component] [--latency L] [--for D]   add latency to every request (of one component)
  random [--seed N] [--for D] [--every E]        one of the above at random every E, for D (default 60s)

Components are those of \`kubesim status\`; nodes those of \`kubesim node list\`.

Examples:
  kubesim chaos kill replicaset
  kubesim chaos partition kubelet --for 20s
  kubesim chaos random --seed 7 --for 60s

Flags:
${formatFlagHelp(flags)}`;

export async function chaos(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(argv, flags);
  const [word, target, ...extra] = positional;
  if (parsed['help'] || word === undefined) return void console.log(usage);
  if (extra.length > 0) throw new UsageError(`unexpected argument(s) ${extra.join(' ')}\n\n${usage}`);
  const result = (await call(String(parsed['kubeconfig']), 'POST', CHAOS_PATH, chaosRequest(word, target, parsed))) as ChaosResult;
  console.log(formatChaosResult(result));
}

/** chaosRequest builds the request the command line asks for; throws UsageError for bad words. */
export function chaosRequest(word: string, target: string | undefined, parsed: Flags): ChaosRequest {
  const action = ACTIONS[word];
  if (!action) throw new UsageError(`unknown chaos action ${JSON.stringify(word)}\n\n${usage}`);
  const request: ChaosRequest = { action };
  if (target !== undefined) request.target = target;
  if (parsed['for'] !== undefined) request.seconds = seconds('for', parsed['for']);
  if (parsed['latency'] !== undefined) request.latencyMs = Math.round(seconds('latency', parsed['latency']) * 1000);
  if (parsed['every'] !== undefined) request.intervalSeconds = seconds('every', parsed['every']);
  if (parsed['seed'] !== undefined) request.seed = Number(parsed['seed']);
  return request;
}

/** formatChaosResult prints what was done, then what to expect. */
export function formatChaosResult(result: ChaosResult): string {
  return `${result.did}\nExpect: ${result.expect}`;
}

function seconds(flag: string, value: string | number | boolean): number {
  let ms: number;
  try {
    ms = parseDuration(String(value));
  } catch (err) {
    throw new UsageError(`--${flag}: ${(err as Error).message} (use e.g. 30s, 2m, 300ms)`);
  }
  if (!(ms > 0)) throw new UsageError(`--${flag} must be longer than 0, got ${String(value)}`);
  return ms / 1000;
}
