/**
 * `kubesim trace <kind>/<name> [-n ns]`: the causal chain of the latest change a user made to
 * an object — which loops it set off, what each of them wrote — and the state the object
 * converged to (docs/history.md). Reads the history API of the cluster in the kubeconfig.
 */
import { resolve } from 'node:path';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { expandShortFlags, type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { readHistory } from './history-client.js';
import { buildTraceTree, convergedLine, pickRoot, renderTree } from './trace-tree.js';

const flags: Record<string, FlagSpec> = {
  namespace: { type: 'string', description: "namespace of the object (-n); default: the kubeconfig context's" },
  kubeconfig: kubeconfigFlag,
  'max-lines': { type: 'number', description: 'print at most this many changes', default: 200 },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim trace <kind>/<name> [-n namespace] [flags]

Prints what the latest change a user made to the object set off, loop by loop, and the
state the object converged to. Example: kubesim trace deployment/web

Flags:
${formatFlagHelp(flags)}`;

/** trace runs `kubesim trace` (see usage). */
export async function trace(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(expandShortFlags(argv, { n: 'namespace' }), flags);
  if (parsed['help']) return void console.log(usage);
  const [kind, name, extra] = (positional[0] ?? '').split('/');
  if (!kind || !name || extra !== undefined || positional.length !== 1) throw new UsageError(`expected one <kind>/<name>\n\n${usage}`);
  const kubeconfig = String(parsed['kubeconfig']);
  const namespace = (parsed['namespace'] as string | undefined) ?? loadKubeconfig(resolve(kubeconfig)).namespace;
  console.log((await traceLines({ kubeconfig, kind, name, namespace, maxLines: Number(parsed['max-lines']) })).join('\n'));
}

/** TraceTarget names the object to trace and where. */
export interface TraceTarget {
  kubeconfig: string;
  kind: string;
  name: string;
  namespace: string;
  maxLines: number;
}

/** traceLines reads the object's history, picks the change to trace, walks forward from it
 * and returns the lines to print. Throws when the object has no history. */
export async function traceLines(target: TraceTarget): Promise<string[]> {
  const all = await readHistory(target.kubeconfig, { resource: target.kind, name: target.name, includeObject: true });
  // Namespaced objects live in the namespace asked for; cluster-scoped ones in ''.
  const own = all.filter((item) => item.namespace === target.namespace);
  const history = own.length > 0 ? own : all.filter((item) => item.namespace === '');
  const root = pickRoot(history);
  const latest = history[history.length - 1];
  if (!root || !latest) {
    throw new Error(`no history for ${target.kind}/${target.name} in namespace ${target.namespace}: it was never written, or its history was compacted`);
  }
  const forward = await readHistory(target.kubeconfig, { fromRevision: root.revision });
  return [...renderTree(buildTraceTree(forward, root), target.maxLines), convergedLine(latest)];
}
