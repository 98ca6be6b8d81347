/** `kubesim up`: start the API server in this process and each control loop as its own
 * supervised child process, write a kubeconfig, print how to use it, and stop everything
 * cleanly on Ctrl-C (or `kubesim down`). */
import { dirname, resolve } from 'node:path';
import { clockSpeedProblem } from '../../apiserver/api/kubesim/clock.js';
import { CLOCK_MODES, type ClockMode, type ClusterClock, createClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import { FaultInjector } from '../../apiserver/faults/injector.js';
import { createResetter } from '../../apiserver/kubesim/reset.js';
import { isLoopbackHost } from '../../apiserver/listen-address.js';
import { type RunningApiServer, startApiServer } from '../../apiserver/start-api-server.js';
import { UI_PATH } from '../../apiserver/ui/index.js';
import { CONTROLLER_NAMES, isControllerName } from '../../controllers/catalog.js';
import { componentName } from '../../controllers/run-controllers.js';
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../../controllers/runtime/logger.js';
import { type FlagSpec, type Flags, formatFlagHelp, parseFlags, UsageError } from '../args.js';
import type { ChaosDeps } from '../chaos/chaos.js';
import { registerChaosRoutes } from '../chaos/chaos-routes.js';
import { kubeconfigNodes } from '../chaos/node-control.js';
import { registerControlRoutes } from '../control-routes.js';
import { writeKubeconfig } from '../kubeconfig.js';
import { randomFromFlags, seedArgs, seedFlags } from '../seed.js';
import { untilSignal } from '../signals.js';
import { Supervisor } from '../supervisor.js';
import { createUpLogs, type UpLogs } from '../up-logs.js';

export const upFlags: Record<string, FlagSpec> = {
  port: { type: 'number', description: 'API server port on 127.0.0.1 (0 picks a free one)', default: 6443 },
  host: { type: 'string', description: 'address to listen on (a non-loopback address needs --allow-remote)', default: '127.0.0.1' },
  'allow-remote': {
    type: 'boolean',
    description: 'listen on a non-loopback --host although the server has no authentication yet: anyone who reaches it controls the cluster',
    default: false,
  },
  kubeconfig: { type: 'string', description: 'where to write the kubeconfig', default: '.kubesim/kubeconfig' },
  'data-dir': { type: 'string', description: 'keep cluster state in this directory (in memory when absent)' },
  speed: { type: 'number', description: 'cluster clock speed factor: 10 runs a 5-minute window in 30 s', default: 1 },
  clock: {
    type: 'string',
    description: 'real (time runs from the start) or virtual (time stands still until `kubesim clock advance` or `resume`)',
    default: 'real',
  },
  controllers: { type: 'string', description: `control loops to run, comma-separated, or "none"`, default: CONTROLLER_NAMES.join(',') },
  nodes: { type: 'number', description: 'simulated nodes (one kubelet-sim process); 0 for none', default: 3 },
  scheduler: { type: 'boolean', description: 'run the scheduler (--scheduler=false to place pods yourself)', default: true },
  ...seedFlags,
  'log-level': {
    type: 'string',
    description: `what the terminal shows: ${Object.keys(LOG_LEVELS).join(', ')} (the files in <kubeconfig dir>/logs have info and up)`,
    default: 'warn',
  },
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
  /** `--seed N` for every component in deterministic mode, else nothing. */
  seedArgs: string[];
  /** `--log-level` of every component. */
  logLevel: LogLevel;
}

/** startComponents starts one supervised process per control loop, the scheduler and the
 * kubelet simulator; each follows the API server's cluster clock (their default --clock server). */
function startComponents(supervisor: Supervisor, plan: ComponentPlan, kubeconfig: string): void {
  const entry = process.argv[1] ?? '';
  const common = ['--kubeconfig', kubeconfig, '--log-level', plan.logLevel, ...plan.seedArgs];
  const components: Array<[string, string[]]> = plan.controllers.map((name) => [name, ['controller', name]]);
  if (plan.scheduler) components.push(['scheduler', ['scheduler']]);
  if (plan.nodes > 0) components.push(['kubelet', ['kubelet', '--nodes', String(plan.nodes)]]);
  for (const [name, args] of components) {
    supervisor.add({ name, command: process.execPath, args: [entry, ...args, ...common] });
    supervisor.start(name);
  }
}

/** checkListenAddress refuses a non-loopback --host without --allow-remote, and warns loudly with it. */
function checkListenAddress(flags: Flags): void {
  const host = String(flags['host']);
  if (isLoopbackHost(host)) return;
  if (!flags['allow-remote']) {
    throw new UsageError(
      `--host ${host} would let anyone who reaches this machine control the cluster: the API server has no authentication yet. ` +
        'Listen on 127.0.0.1 (the default), or add --allow-remote if you accept that.',
    );
  }
  console.error(
    `kubesim: WARNING: listening on ${host} without authentication: anyone who can reach this port can read Secrets and change or delete anything.`,
  );
}

async function startServer(flags: Flags, clock: ClusterClock, supervisor: Supervisor, logs: UpLogs, stop: AbortController): Promise<RunningApiServer> {
  const random = randomFromFlags(flags, 'apiserver');
  // Made here, as buildServer would make it, because chaos adds fault rules to it.
  const faults = new FaultInjector({ random: random.fork('faults') });
  const nodes = kubeconfigNodes(resolve(String(flags['kubeconfig'])));
  const chaos: ChaosDeps = { supervisor, faults, clock, nodes, random: random.fork('chaos'), notify: (m) => console.log(`kubesim: ${m}`) };
  return startApiServer({
    host: String(flags['host']),
    port: Number(flags['port']),
    dataDir: flags['data-dir'] ? resolve(String(flags['data-dir'])) : undefined,
    logger: logs.logger('apiserver'),
    // Every timestamp the server sets reads it; metrics scrapes follow its speed.
    clock,
    random,
    faults,
    plugins: [(app) => registerControlRoutes(app, supervisor, () => stop.abort(new Error('kubesim down'))), (app) => void registerChaosRoutes(app, chaos)],
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') {
      throw new Error(`port ${String(flags['port'])} is already in use: stop the other cluster (\`kubesim down\`), or choose another port with --port`);
    }
    throw err;
  });
}

/** createClock makes the cluster clock --clock and --speed ask for. */
function createClock(flags: Flags): ClusterClock {
  const mode = String(flags['clock']);
  if (!(CLOCK_MODES as readonly string[]).includes(mode)) throw new UsageError(`--clock must be real or virtual, got ${JSON.stringify(mode)}`);
  const speed = Number(flags['speed']);
  const speedProblem = clockSpeedProblem(speed);
  if (speedProblem) throw new UsageError(`--speed ${speedProblem}, got ${String(flags['speed'])}`);
  return createClusterClock({ mode: mode as ClockMode, speed });
}

function describeClock(clock: ClusterClock): string {
  const { speed, paused } = clock.state();
  if (paused) return ', clock paused (virtual): move it with `kubesim clock advance 5m` or `kubesim clock resume`';
  return speed !== 1 ? `, clock ×${speed}` : '';
}

/** reportName is the name a supervised component reports its activity under. */
function reportName(name: string): string {
  return isControllerName(name) ? componentName([name]) : name;
}

/**
 * watchComponents tells the server which processes should be reporting activity (the running
 * ones), and captures the just-started state for `reset` once the cluster first settles.
 */
function watchComponents(server: RunningApiServer, supervisor: Supervisor): void {
  server.control.expectComponents(() =>
    supervisor
      .status()
      .filter((c) => c.state === 'running')
      .map((c) => reportName(c.name)),
  );
  // A new process of a component has synced nothing yet: its predecessor's last report says
  // nothing about it, so settle waits for the new one to report.
  supervisor.onLaunch((name) => server.control.board.forget(reportName(name)));
  const resetter = createResetter(server.store, server.control);
  const captured = server.control.settle({ timeoutMs: 120_000 }).then(() => {
    resetter.capture();
    console.log('kubesim: every loop has settled; `kubesim reset` returns the cluster to this state');
  });
  captured.catch((err: Error) => console.log(`kubesim: the cluster did not settle after starting, so reset is unavailable: ${err.message}`));
  // A reset asked for while the cluster is still starting waits for the baseline.
  server.control.reset = async () => {
    await captured;
    return resetter.reset();
  };
}

export async function up(argv: string[]): Promise<void> {
  const started = performance.now();
  const { flags } = parseFlags(argv, upFlags);
  if (flags['help']) return void console.log(upUsage);
  checkListenAddress(flags);
  const terminalLevel = String(flags['log-level']);
  if (!isLogLevel(terminalLevel))
    throw new UsageError(`--log-level must be one of ${Object.keys(LOG_LEVELS).join(', ')}, got ${JSON.stringify(terminalLevel)}`);
  const clock = createClock(flags);
  const kubeconfig = resolve(String(flags['kubeconfig']));
  const logDir = resolve(dirname(kubeconfig), 'logs');
  const logs = createUpLogs({ logDir, terminalLevel, clock });
  const plan: ComponentPlan = {
    controllers: parseControllerList(String(flags['controllers'])),
    nodes: Number(flags['nodes']),
    scheduler: flags['scheduler'] === true,
    seedArgs: seedArgs(flags),
    logLevel: logs.fileLevel,
  };
  // A component that exits or cannot start is a warning: it stands out on the terminal.
  const supervisorLog = logs.logger('supervisor');
  const supervisor = new Supervisor({ logDir, notify: (m) => supervisorLog.warn({}, m), onOutput: logs.print });
  const stop = untilSignal();
  const server = await startServer(flags, clock, supervisor, logs, stop);
  writeKubeconfig(kubeconfig, server.url);
  startComponents(supervisor, plan, kubeconfig);
  watchComponents(server, supervisor);
  const readyMs = Math.round(performance.now() - started);
  console.log(
    `kubesim is up: API server ${server.url} (ready in ${readyMs} ms, ${flags['data-dir'] ? `state in ${String(flags['data-dir'])}` : 'state in memory'}${describeClock(clock)})`,
  );
  console.log(`components: ${supervisor.names().join(', ') || 'none'}; ${plan.nodes} simulated node(s) (logs in ${logDir})`);
  console.log(`live view: ${server.url}${UI_PATH} (the object graph, every loop, the timeline; clock and chaos controls)`);
  console.log(`\nPoint kubectl at it:\n  export KUBECONFIG=${kubeconfig}\n  kubectl get namespaces\n\nPress Ctrl-C to stop.`);
  await new Promise((done) => stop.signal.addEventListener('abort', done, { once: true }));
  console.log('\nkubesim: stopping...');
  await supervisor.stopAll();
  await server.close();
  await logs.close();
  console.log('kubesim: stopped');
}
