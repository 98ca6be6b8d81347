/**
 * `kubesim load <kind>/<name> --cpu 1400m [--memory 512Mi]` and `kubesim load <kind>/<name>
 * --off`: declare (or withdraw) the total demand a workload's service receives. The command
 * only sets the `kubesim.io/load-cpu` / `kubesim.io/load-memory` annotations on the workload
 * (a merge patch); the kubelets divide the demand over the workload's ready pods at every
 * usage report, so `kubectl top pods` and the HorizontalPodAutoscaler see it at the next
 * scrape, and scaling out lowers each pod's share. See docs/kubelet-sim.md ("Load and usage").
 */
import { resolve } from 'node:path';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { tryParseQuantity } from '../../apiserver/api/quantity.js';
import { type AnyResourceDefinition, type KubeObject, qualifiedResource } from '../../apiserver/api/resource-definition.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { isNetworkError } from '../../controllers/runtime/client/http-transport.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { LOAD_CPU_ANNOTATION, LOAD_MEMORY_ANNOTATION } from '../../kubelet-sim/workload-load.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';

/** loadFlags are the flags of `kubesim load` (plus kubectl's `-n` and `-h`). */
export const loadFlags: Record<string, FlagSpec> = {
  cpu: { type: 'string', description: 'total CPU demand of the workload, e.g. 1400m or 2' },
  memory: { type: 'string', description: 'total memory demand of the workload, e.g. 512Mi' },
  off: { type: 'boolean', description: 'remove the load (both CPU and memory)' },
  namespace: { type: 'string', description: 'namespace of the workload (also -n)', default: 'default' },
  kubeconfig: kubeconfigFlag,
  help: { type: 'boolean', description: 'show this help (also -h)' },
};

const usage = `Usage: kubesim load <kind>/<name> (--cpu <quantity> [--memory <quantity>] | --memory <quantity> | --off) [flags]

Sets the total demand on a workload (deployment or replicaset). The simulated kubelets divide
it evenly over the workload's ready pods, as a load balancer would: kubectl top pods shows
each pod's share, and scaling out lowers it.

  kubesim load deployment/web --cpu 1400m
  kubesim load deploy/web --memory 512Mi -n shop
  kubesim load deployment/web --off

Flags:
${formatFlagHelp(loadFlags)}`;

/** WORKLOADS are the kinds whose pods the kubelets can trace back to them. */
const WORKLOADS: readonly AnyResourceDefinition[] = [deploymentDefinition, replicaSetDefinition];

/** load runs `kubesim load ...` (see usage); throws UsageError for bad arguments and Error
 * with a message that says what to do for everything else. */
export async function load(argv: string[]): Promise<void> {
  const { flags, positional } = parseFlags(argv.map(expandShortFlag), loadFlags);
  if (flags['help'] || positional.length === 0) return void console.log(usage);
  if (positional.length > 1) throw new UsageError(`expected one <kind>/<name>, got ${positional.join(' ')}`);
  const cpu = optionalQuantity(flags, 'cpu');
  const memory = optionalQuantity(flags, 'memory');
  const off = flags['off'] === true;
  if (off && (cpu !== undefined || memory !== undefined)) throw new UsageError('--off cannot be combined with --cpu or --memory');
  if (!off && cpu === undefined && memory === undefined) throw new UsageError(`give --cpu and/or --memory, or --off\n\n${usage}`);
  const { def, name } = parseTarget(positional[0] ?? '');
  const request = { kubeconfig: String(flags['kubeconfig']), namespace: String(flags['namespace']), def, name };
  console.log(await setLoad(off ? { ...request, off: true } : { ...request, cpu, memory }));
}

/** SetLoadOptions name the workload and the demand to set (or `off` to remove it). */
export interface SetLoadOptions {
  kubeconfig: string;
  namespace: string;
  def: AnyResourceDefinition;
  name: string;
  cpu?: string | undefined;
  memory?: string | undefined;
  off?: boolean;
}

/**
 * setLoad patches the workload's load annotations and returns the line to print, e.g.
 * `deployment.apps/web: load set to cpu 1400m (spread over 3 ready pods)`. With only one of
 * cpu/memory given, the other is left as it was. Throws an Error saying what is wrong when
 * the cluster is unreachable or the workload does not exist.
 */
export async function setLoad(options: SetLoadOptions): Promise<string> {
  const target = loadKubeconfig(resolve(options.kubeconfig));
  const client = createKubeClient({ server: target.server, token: target.token, tls: target.tls, userAgent: 'kubesim-cli/0.1' });
  const label = `${options.def.singular}.${options.def.group}/${options.name}`;
  try {
    const patch = { metadata: { annotations: annotationsPatch(options) } };
    const updated = await client.resource(options.def).patch(options.namespace, options.name, patch, { type: 'merge' });
    return `${label}: ${describeLoad(options, updated)}`;
  } catch (err) {
    if (isNetworkError(err)) throw new Error(`cannot reach the cluster at ${target.server}: is \`kubesim up\` running?`);
    if (isNotFound(err)) throw new Error(`${qualifiedResource(options.def)} "${options.name}" not found in namespace ${options.namespace}`);
    throw err;
  } finally {
    client.close();
  }
}

/** annotationsPatch is the merge patch's annotations: null removes a key. */
function annotationsPatch(options: SetLoadOptions): Record<string, string | null> {
  if (options.off) return { [LOAD_CPU_ANNOTATION]: null, [LOAD_MEMORY_ANNOTATION]: null };
  return {
    ...(options.cpu !== undefined ? { [LOAD_CPU_ANNOTATION]: options.cpu } : {}),
    ...(options.memory !== undefined ? { [LOAD_MEMORY_ANNOTATION]: options.memory } : {}),
  };
}

function describeLoad(options: SetLoadOptions, workload: KubeObject): string {
  if (options.off) return 'load removed';
  const annotations = workload.metadata.annotations ?? {};
  const parts = [
    ['cpu', annotations[LOAD_CPU_ANNOTATION]],
    ['memory', annotations[LOAD_MEMORY_ANNOTATION]],
  ].filter(([, v]) => v !== undefined);
  const ready = (workload as { status?: { readyReplicas?: number } }).status?.readyReplicas ?? 0;
  return `load set to ${parts.map(([k, v]) => `${k} ${v}`).join(', ')} (spread over ${ready} ready ${ready === 1 ? 'pod' : 'pods'})`;
}

/** parseTarget reads `<kind>/<name>`, the kind spelled as kubectl accepts it: plural,
 * singular, short name or Kind, optionally with `.apps`. */
export function parseTarget(text: string): { def: AnyResourceDefinition; name: string } {
  const slash = text.indexOf('/');
  const kind = text.slice(0, slash).toLowerCase();
  const name = text.slice(slash + 1);
  if (slash <= 0 || name === '' || name.includes('/')) throw new UsageError(`expected <kind>/<name> such as deployment/web, got ${JSON.stringify(text)}`);
  const def = WORKLOADS.find((d) => {
    const names = [d.plural, d.singular, d.kind.toLowerCase(), ...d.shortNames];
    return names.some((n) => kind === n || kind === `${n}.${d.group}`);
  });
  if (!def) throw new UsageError(`kubesim load works on deployments and replicasets, not ${JSON.stringify(text.slice(0, slash))}`);
  return { def, name };
}

function optionalQuantity(flags: Record<string, unknown>, name: 'cpu' | 'memory'): string | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const quantity = tryParseQuantity(text);
  if (!quantity || quantity.sign() < 0)
    throw new UsageError(`--${name} needs a non-negative quantity such as ${name === 'cpu' ? '1400m' : '512Mi'}, got ${JSON.stringify(value)}`);
  return text;
}

/** expandShortFlag maps kubectl's `-n` and `-h` onto the long flags the parser knows. */
function expandShortFlag(arg: string): string {
  if (arg === '-n') return '--namespace';
  if (arg.startsWith('-n=')) return `--namespace=${arg.slice(3)}`;
  return arg === '-h' ? '--help' : arg;
}
