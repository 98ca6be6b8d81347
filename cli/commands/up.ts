/** `kubesim up`: start the API server in this process and each control loop as its own
 * supervised child process, write a kubeconfig, print how to use it, and stop everything
 * cleanly on Ctrl-C (or `kubesim down`). */
import { dirname, resolve } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../apiserver/start-api-server.js';
import { CONTROLLER_NAMES } from '../../controllers/catalog.js';
import { createRealClock, type RealClock } from '../../controllers/runtime/clock.js';
import { formatFlagHelp, parseFlags, UsageError, type FlagSpec, type Flags } from '../args.js';
import { registerControlRoutes } from '../control-routes.js';
import { writeKubeconfig } from '../kubeconfig.js';
import { untilSignal } from '../signals.js';
import { Supervisor } from '../supervisor.js';

export const upFlags: Record<string, FlagSpec> = {
  port: { type: 'number', description: 'API server port on 127.0.0.1 (0 picks a free one)', default: 6443 },
  host: { type: 'string', description: 'address to listen on', default: '127.0.0.1' },
  kubeconfig: { type: 'string', description: 'where to write the kubeconfig', default: '.kubesim/kubeconfig' },
  'data-dir': { type: 'string', description: 'keep cluster state in this directory (in memory when absent)' },
  speed: { type: 'number', description: 'cluster clock speed factor: 10 runs a 5-minute window in 30 s', default: 1 },
  controllers: { type: 'string', description: `control loops to run, comma-separated, or "none"`, default: CONTROLLER_NAMES.join(',') },
  nodes: { type: 'number', description: 'simulated nodes (one kubelet-sim process); 0 for none', default: 3 },
  scheduler: { type: 'boolean', description: 'run the scheduler (--scheduler=false to place pods yourself)', default: true },
  'log-level': { type: 'string', description: 'fatal, error, warn, info, debug', default: 'warn' },
  help: { type: 'boolean', description: 'show this help' },
};

export const upUsage = `Usage: kubesim up [flags]\n\nStarts a kubesim cluster and writes a kubeconfig for kubectl.\n\n${formatFlagHelp(upFlags)}`;

function parseControllerList(text: string): string[] {
  if (text === 'none' || text === '') return [];
  const names = text.split(',');
  const unknown = names.filter((n) => !(CONTROLLER_NAMES as string[]).includes(n));
  if (unknown.length) throw new UsageError(`unknown controller(s) ${unknown.join(', ')}; known: ${CONTROLLER_NAMES.join(', ')}`);
  return names;
}

interface ComponentPlan {
  controllers: string[];
  nodes: number;
  scheduler: boolean;
}

/** startComponents starts one supervised process per control loop, the scheduler and the
 * kubelet simulator; they share the cluster clock (speed and origin) with the API server. */
function startComponents(supervisor: Supervisor, plan: ComponentPlan, kubeconfig: string, clock: RealClock): void {
  const entry = process.argv[1] ?? '';
  const common = ['--kubeconfig', kubeconfig, '--speed', String(clock.speed), '--clock-origin', String(clock.originMs)];
  const components: Array<[string, string[]]> = plan.controllers.map((name) => [name, ['controller', name]]);
  if (plan.scheduler) components.push(['scheduler', ['scheduler']]);
  if (plan.nodes > 0) components.push(['kubelet', ['kubelet', '--nodes', String(plan.nodes)]]);
  for (const [name, args] of components) {
    supervisor.add({ name, command: process.execPath, args: [entry, ...args, ...common] });
    supervisor.start(name);
  }
}

async function startServer(flags: Flags, clock: RealClock, supervisor: Supervisor, stop: AbortController): Promise<RunningApiServer> {
  return startApiServer({
    host: String(flags['host']),
    port: Number(flags['port']),
    dataDir: flags['data-dir'] ? resolve(String(flags['data-dir'])) : undefined,
    logger: { level: String(flags['log-level']) },
    now: () => clock.now(),
    // metrics-server's 15 s resolution in cluster time, so the HPA sees fresh usage at any speed.
    metricsIntervalMs: Math.max(250, 15_000 / clock.speed),
    plugins: [(app) => registerControlRoutes(app, supervisor, () => stop.abort(new Error('kubesim down')))],
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') {
      throw new Error(`port ${String(flags['port'])} is already in use: stop the other cluster (\`kubesim down\`), or choose another port with --port`);
    }
    throw err;
  });
}

export async function up(argv: string[]): Promise<void> {
  const started = performance.now();
  const { flags } = parseFlags(argv, upFlags);
  if (flags['help']) return void console.log(upUsage);
  const plan: ComponentPlan = {
    controllers: parseControllerList(String(flags['controllers'])),
    nodes: Number(flags['nodes']),
    scheduler: flags['scheduler'] === true,
  };
  const clock = createRealClock({ speed: Number(flags['speed']) });
  const kubeconfig = resolve(String(flags['kubeconfig']));
  const supervisor = new Supervisor({ logDir: resolve(dirname(kubeconfig), 'logs'), notify: (m) => console.log(`kubesim: ${m}`) });
  const stop = untilSignal();
  const server = await startServer(flags, clock, supervisor, stop);
  writeKubeconfig(kubeconfig, server.url);
  startComponents(supervisor, plan, kubeconfig, clock);
  const readyMs = Math.round(performance.now() - started);
  console.log(`kubesim is up: API server ${server.url} (ready in ${readyMs} ms, ${flags['data-dir'] ? `state in ${String(flags['data-dir'])}` : 'state in memory'}${clock.speed !== 1 ? `, clock ×${clock.speed}` : ''})`);
  console.log(`components: ${supervisor.names().join(', ') || 'none'}; ${plan.nodes} simulated node(s) (logs in ${resolve(dirname(kubeconfig), 'logs')})`);
  console.log(`\nPoint kubectl at it:\n  export KUBECONFIG=${kubeconfig}\n  kubectl get namespaces\n\nPress Ctrl-C to stop.`);
  await new Promise((done) => stop.signal.addEventListener('abort', done, { once: true }));
  console.log('\nkubesim: stopping...');
  await supervisor.stopAll();
  await server.close();
  console.log('kubesim: stopped');
}
