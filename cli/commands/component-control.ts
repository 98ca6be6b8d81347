/** `kubesim stop|start <component>` and `kubesim status`: talk to the supervisor of a running
 * `kubesim up` through the server named in the kubeconfig. */
import { resolve } from 'node:path';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';
import { type FlagSpec, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { CONTROL_PREFIX, SHUTDOWN_PATH } from '../control-routes.js';
import type { ComponentStatus } from '../supervisor.js';

const flags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
};

/** call sends one request to the server named in `kubeconfig` (a JSON `body` if given) and
 * resolves with the decoded answer; rejects with the Status message of an error answer, or
 * says the cluster cannot be reached. */
export async function call(kubeconfig: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const { server, token, tls } = loadKubeconfig(resolve(kubeconfig));
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
  let response: Response;
  try {
    response = await fetchWithTls(`${server}${path}`, { ...init, token, tls });
  } catch {
    throw new Error(`cannot reach the cluster at ${server}: is \`kubesim up\` running?`);
  }
  const answer = (await response.json()) as { message?: string };
  if (!response.ok) throw new Error(answer.message ?? `HTTP ${response.status}`);
  return answer;
}

/** Wide enough for the longest component name (persistentvolume-binder) and a gap. */
const NAME_WIDTH = 26;

function describe(status: ComponentStatus): string {
  const hosted = status.process && status.process !== status.name ? `in ${status.process}, ` : '';
  const pid = status.pid ? ` (${hosted}pid ${status.pid})` : hosted ? ` (${hosted.slice(0, -2)})` : '';
  const restarts = status.restarts ? `, ${status.restarts} restart${status.restarts === 1 ? '' : 's'}` : '';
  const metrics = status.metricsUrl && status.process === status.name ? `, metrics ${status.metricsUrl}` : '';
  return `${status.name.padEnd(NAME_WIDTH)} ${status.state}${pid}${restarts}${metrics}`;
}

export async function componentAction(action: 'stop' | 'start', argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(argv, flags);
  const name = positional[0];
  if (!name) throw new UsageError(`usage: kubesim ${action} <component>   (see \`kubesim status\` for the components)`);
  const status = (await call(String(parsed['kubeconfig']), 'POST', `${CONTROL_PREFIX}/${encodeURIComponent(name)}/${action}`)) as ComponentStatus;
  console.log(describe(status));
}

export async function status(argv: string[]): Promise<void> {
  const { flags: parsed } = parseFlags(argv, flags);
  const body = (await call(String(parsed['kubeconfig']), 'GET', CONTROL_PREFIX)) as { components: ComponentStatus[] };
  console.log(`${'COMPONENT'.padEnd(NAME_WIDTH)} STATE`);
  for (const component of body.components) console.log(describe(component));
}

/** down asks a running `kubesim up` to stop everything. */
export async function down(argv: string[]): Promise<void> {
  const { flags: parsed } = parseFlags(argv, flags);
  await call(String(parsed['kubeconfig']), 'POST', SHUTDOWN_PATH);
  console.log('kubesim: the cluster is stopping');
}
