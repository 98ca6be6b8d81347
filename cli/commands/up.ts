/** `kubesim up`: supervise a whole cluster — the API server, the loops, the scheduler and the
 * simulated kubelets, each a child process restarted with backoff when it dies (the API server
 * too, on the same data dir and port) — write a kubeconfig, wait for the nodes to be Ready,
 * print how to use it, and stop everything cleanly on Ctrl-C (or `kubesim down`). */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { clusterCaFiles } from '../../apiserver/api/pki/cluster-ca.js';
import { serviceAccountKeyFiles } from '../../apiserver/api/pki/service-account-key.js';
import { isLoopbackHost, serverUrl } from '../../apiserver/listen-address.js';
import { uiLoginTokenFile } from '../../apiserver/ui/ui-login.js';
import { UI_PATH } from '../../apiserver/ui/ui-path.js';
import { CONTROLLER_NAMES, type ControllerName } from '../../controllers/catalog.js';
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../../controllers/runtime/logger.js';
import { type FlagSpec, type Flags, formatFlagHelp, parseFlags, UsageError } from '../args.js';
import { auditFlags, auditOptionsFromFlags, forwardedAuditArgs } from '../audit-flags.js';
import { checkClockFlags, clusterClockFlags, describeClock } from '../cluster-clock-flags.js';
import { clusterSigningArgs } from '../cluster-signing-flags.js';
import { ClusterComponents } from '../components.js';
import { writeKubeconfig } from '../kubeconfig.js';
import { apiserverSecurityFlags, forwardedSecurityArgs, securityOptionsFromFlags } from '../security-flags.js';
import { seedArgs, seedFlags } from '../seed.js';
import { untilSignal } from '../signals.js';
import { type ClusterStore, startClusterStore, storeFlags, storeSpecFromFlags } from '../store-flag.js';
import { Supervisor } from '../supervisor.js';
import { linkApiServer } from '../up/apiserver-link.js';
import { prepareCredentials } from '../up/credentials.js';
import { type ComponentPlan, isNodeProcess, loopHosts, type PlannedProcess, plannedProcesses, reportNameOf } from '../up/plan.js';
import { reservePort } from '../up/reserve-port.js';
import { makeScratchState } from '../up/scratch-state.js';
import { lockStateFolder } from '../up/state-lock.js';
import { waitForDefaultServiceAccount } from '../up/wait-for-default-account.js';
import { waitForReadyNodes } from '../up/wait-for-nodes.js';
import { createUpLogs } from '../up-logs.js';

export const upFlags: Record<string, FlagSpec> = {
  port: { type: 'number', description: 'API server port on 127.0.0.1 (0 picks a free one)', default: 6443 },
  host: { type: 'string', description: 'address to listen on (a non-loopback address needs --allow-remote)', default: '127.0.0.1' },
  'allow-remote': {
    type: 'boolean',
    description: 'listen on a non-loopback --host although the server has no authentication yet: anyone who reaches it controls the cluster',
    default: false,
  },
  kubeconfig: {
    type: 'string',
    description: 'where to write the kubeconfig (its folder also holds the logs; one cluster per folder)',
    default: '.kubesim/kubeconfig',
  },
  'data-dir': { type: 'string', description: 'keep cluster state in this directory across runs (default: a temporary one, removed on exit)' },
  ...storeFlags,
  ...clusterClockFlags,
  controllers: { type: 'string', description: `control loops to run, comma-separated, or "none"`, default: CONTROLLER_NAMES.join(',') },
  'one-process-per-loop': {
    type: 'boolean',
    description: 'run every control loop in a process of its own (default: ReplicaSet, Deployment and HPA alone, the others together)',
    default: false,
  },
  nodes: { type: 'number', description: 'simulated nodes (one kubelet-sim process); 0 for none', default: 3 },
  scheduler: { type: 'boolean', description: 'run the scheduler (--scheduler=false to place pods yourself)', default: true },
  ...seedFlags,
  ...apiserverSecurityFlags,
  ...auditFlags,
  // A cluster `up` starts is a kubeadm-like one: Node,RBAC.
  'authorization-mode': { ...apiserverSecurityFlags['authorization-mode']!, default: 'RBAC' },
  'log-level': {
    type: 'string',
    description: `what the terminal shows: ${Object.keys(LOG_LEVELS).join(', ')} (the files in <kubeconfig dir>/logs have info and up)`,
    default: 'warn',
  },
  help: { type: 'boolean', description: 'show this help' },
};

export const upUsage = `Usage: kubesim up [flags]\n\nStarts a kubesim cluster and writes a kubeconfig for kubectl.\n\n${formatFlagHelp(upFlags)}`;

function parseControllerList(text: string): ControllerName[] {
  if (text === 'none' || text === '') return [];
  const names = text.split(',');
  const unknown = names.filter((n) => !(CONTROLLER_NAMES as string[]).includes(n));
  if (unknown.length) throw new UsageError(`unknown controller(s) ${unknown.join(', ')}; known: ${CONTROLLER_NAMES.join(', ')}`);
  return names as ControllerName[];
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

function checkLogLevel(flags: Flags): LogLevel {
  const level = String(flags['log-level']);
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${Object.keys(LOG_LEVELS).join(', ')}, got ${JSON.stringify(level)}`);
  return level;
}

/** apiServerArgs are the `kubesim apiserver` arguments of the cluster's API server process. */
function apiServerArgs(flags: Flags, dataDir: string, pkiDir: string, kubeconfig: string, logLevel: LogLevel, storeArgs: string[]): string[] {
  const passed = ['host', 'clock', 'speed'].flatMap((flag) => [`--${flag}`, String(flags[flag])]);
  return [
    process.argv[1] ?? '',
    'apiserver',
    '--supervised',
    ...passed,
    '--data-dir',
    dataDir,
    '--pki-dir',
    pkiDir,
    '--kubeconfig',
    kubeconfig,
    '--log-level',
    logLevel,
    ...storeArgs,
    ...seedArgs(flags),
    ...forwardedSecurityArgs(flags),
    ...forwardedAuditArgs(flags),
    // Admission that relies on a loop acts only when the cluster runs it.
    '--cluster-loops',
    parseControllerList(String(flags['controllers'])).join(',') || 'none',
  ].concat(flags['allow-remote'] ? ['--allow-remote'] : []);
}

const since = (startMs: number) => Math.round(performance.now() - startMs);

/** scratchFolder is where a temporary state folder goes: memory-backed /dev/shm where the
 * system has it (the store then writes at memory speed, as an in-memory one would, yet a
 * restarted API server finds it), else the system's temporary folder. */
export async function up(argv: string[]): Promise<void> {
  const started = performance.now();
  // A terminal (or a pipe) that went away costs the terminal output, never the cluster: an
  // unhandled EPIPE on stdout would end the supervisor and every process with it.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const { flags } = parseFlags(argv, upFlags);
  if (flags['help']) return void console.log(upUsage);
  checkListenAddress(flags);
  const terminalLevel = checkLogLevel(flags);
  const clock = checkClockFlags(flags);
  const storeSpec = storeSpecFromFlags(flags);
  const kubeconfig = resolve(String(flags['kubeconfig']));
  const releaseLock = lockStateFolder(kubeconfig);
  const keepData = flags['data-dir'] !== undefined;
  // Without --data-dir the state lives in a temporary folder: it survives an API server
  // restart, and goes when the cluster stops (or, after a kill -9, when the next one starts).
  const dataDir = keepData ? resolve(String(flags['data-dir'])) : makeScratchState();
  // The cluster CA outlives a temporary data dir: it stays in the state folder, so each `up`
  // reads it instead of making one (which costs a few hundred milliseconds of start).
  const pkiDir = keepData ? join(dataDir, 'pki') : resolve(dirname(kubeconfig), 'pki');
  const logDir = resolve(dirname(kubeconfig), 'logs');
  const logs = createUpLogs({ logDir, terminalLevel, clock: createRealClock() });
  securityOptionsFromFlags(flags); // a wrong value fails here, before anything starts
  auditOptionsFromFlags(flags);
  const secure = !flags['insecure-http'];
  const host = String(flags['host']);
  // HTTPS: the CA, the serving and client certificates are made (once) before any process
  // starts, and each component gets a kubeconfig with its own identity, as kubeadm writes them.
  const credentials = secure ? await prepareCredentials(pkiDir) : undefined;
  const plan: ComponentPlan = {
    controllers: parseControllerList(String(flags['controllers'])),
    nodes: Number(flags['nodes']),
    scheduler: flags['scheduler'] === true,
    onePerLoop: flags['one-process-per-loop'] === true,
    common: ['--kubeconfig', kubeconfig, '--log-level', logs.fileLevel, ...seedArgs(flags)],
    // As kube-controller-manager on a kubeadm cluster: its own certificate for the shared
    // informers, and each loop's writes as the loop's service account.
    controllerArgs: [
      ...clusterSigningArgs(clusterCaFiles(pkiDir)),
      '--service-account-private-key-file',
      serviceAccountKeyFiles(pkiDir).keyFile,
      ...(credentials ? ['--kubeconfig', credentials.controllerManagerKubeconfig, '--use-service-account-credentials'] : []),
    ],
    schedulerArgs: credentials ? ['--kubeconfig', credentials.schedulerKubeconfig] : [],
    kubeletArgs: credentials ? clusterSigningArgs(clusterCaFiles(pkiDir)) : [],
  };
  const processes = plannedProcesses(plan);
  // A component that exits or cannot start is a warning: it stands out on the terminal.
  const supervisorLog = logs.logger('supervisor');
  const supervisor = new Supervisor({ logDir, notify: (m) => supervisorLog.warn({}, m), onOutput: logs.print });
  const components = new ClusterComponents(supervisor, loopHosts(processes));
  const stop = untilSignal();
  let clusterStore: ClusterStore | undefined;
  const cleanUp = async () => {
    await supervisor.stopAll();
    await clusterStore?.stop();
    await logs.close();
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    releaseLock();
  };
  // The port is known before the API server listens, so the kubeconfig is written and the
  // kubelets start loading beside the API server (they wait for it to answer): on two cores,
  // the API server and the nodes are what the banner waits for. The other components start
  // once the nodes are Ready, rather than slowing both down.
  let port: number;
  try {
    port = await reservePort(host, Number(flags['port']));
    clusterStore = await startClusterStore(storeSpec, dataDir);
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const serverAddress = serverUrl(host, port, secure ? 'https' : 'http');
  if (credentials) credentials.writeKubeconfigs(serverAddress, kubeconfig);
  else writeKubeconfig(kubeconfig, serverAddress);
  const link = linkApiServer({
    supervisor,
    components,
    args: apiServerArgs(flags, dataDir, pkiDir, kubeconfig, logs.fileLevel, clusterStore.args),
    port,
    reportNameOf: (name) => reportNameOf(processes, name),
    onShutdown: () => stop.abort(new Error('kubesim down')),
  });
  // Added in plan order (what `kubesim status` lists), started in two waves: what the banner
  // waits for (the kubelets, and the process that makes the `default` ServiceAccount), then the rest.
  for (const planned of processes) supervisor.add({ name: planned.name, command: process.execPath, args: [process.argv[1] ?? '', ...planned.args] });
  const launch = (planned: PlannedProcess) => supervisor.start(planned.name);
  const firstWave = (p: PlannedProcess) => isNodeProcess(p) || p.hostedLoops.includes('serviceaccount');
  const [first, rest] = [processes.filter(firstWave), processes.filter((p) => !firstWave(p))];
  first.forEach(launch);
  let url: string;
  try {
    url = await link.listening;
  } catch (err) {
    await cleanUp();
    rmSync(kubeconfig, { force: true });
    throw err;
  }
  const apiMs = since(started);
  await waitForReadyNodes(url, plan.nodes, stop.signal, (line) => console.log(`kubesim: ${line}`), credentials?.adminTls);
  rest.forEach(launch);
  link.componentsStarted();
  if (plan.controllers.includes('serviceaccount')) await waitForDefaultServiceAccount(url, stop.signal, credentials?.adminTls);
  if (!stop.signal.aborted) {
    const nodesMs = since(started);
    const state = keepData ? `state in ${String(flags['data-dir'])}` : 'state in a temporary folder, removed on exit';
    console.log(
      `kubesim is up: API server ${url} (API ready in ${apiMs} ms, ${plan.nodes} node(s) Ready in ${nodesMs} ms; ${state}${describeClock(clock.mode, clock.speed)})`,
    );
    console.log(`processes: ${supervisor.names().join(', ')} (\`npx kubesim status\` shows every loop and its process; logs in ${logDir})`);
    console.log(`live view: ${liveViewUrl(url, pkiDir)} (the object graph, every loop, the timeline; clock and chaos controls)`);
    if (credentials) console.log(`cluster CA: ${clusterCaFiles(pkiDir).certFile} (trust it in your browser, or accept the warning, for the live view)`);
    console.log(`\nPoint kubectl at it:\n  export KUBECONFIG=${kubeconfig}\n  kubectl get nodes\n\nPress Ctrl-C to stop (or run \`npx kubesim down\`).`);
    await new Promise((done) => stop.signal.addEventListener('abort', done, { once: true }));
  }
  console.log('\nkubesim: stopping...');
  await cleanUp();
  console.log('kubesim: stopped');
}

/** liveViewUrl is the live view's address; with its login token when the API server
 * authenticates (it then keeps one in the PKI directory: apiserver/ui/ui-login.ts). */
function liveViewUrl(url: string, pkiDir: string): string {
  const tokenFile = uiLoginTokenFile(pkiDir);
  return existsSync(tokenFile) ? `${url}${UI_PATH}?token=${readFileSync(tokenFile, 'utf8').trim()}` : `${url}${UI_PATH}`;
}
