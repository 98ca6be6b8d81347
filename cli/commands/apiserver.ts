/**
 * `kubesim apiserver`: run only the API server, as this process — for a cluster whose loops,
 * scheduler and kubelets run elsewhere (`kubesim controller|scheduler|kubelet --kubeconfig`),
 * for durability drills (kill -9 it and start it again on the same --data-dir), and as the
 * building block of larger layouts. Prints one line with its URL once it listens.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ClockState } from '../../apiserver/api/machinery/cluster-clock.js';
import { FaultInjector } from '../../apiserver/faults/injector.js';
import { isLoopbackHost, portInUseMessage } from '../../apiserver/listen-address.js';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { CONTROLLER_NAMES, isControllerName } from '../../controllers/catalog.js';
import { createLogger, isLogLevel, LOG_LEVELS } from '../../controllers/runtime/logger.js';
import { type FlagSpec, type Flags, formatFlagHelp, parseFlags, UsageError } from '../args.js';
import { auditFlags, auditOptionsFromFlags } from '../audit-flags.js';
import { clusterClockFlags, createClockFromFlags } from '../cluster-clock-flags.js';
import { IpcPeer } from '../ipc.js';
import { serverKubeconfig, writeKubeconfigFile } from '../kubeconfig.js';
import { apiserverSecurityFlags, securityOptionsFromFlags } from '../security-flags.js';
import { randomFromFlags, seedFlags } from '../seed.js';
import { untilSignal } from '../signals.js';
import { storeFlags, storeSpecFromFlags } from '../store-flag.js';
import { connectToSupervisor, type SupervisedOptions, supervisedPlugins } from '../up/supervised-apiserver.js';

export const apiserverFlags: Record<string, FlagSpec> = {
  port: { type: 'number', description: 'port on --host (0 picks a free one)', default: 6443 },
  host: { type: 'string', description: 'address to listen on (a non-loopback address needs --allow-remote)', default: '127.0.0.1' },
  'allow-remote': { type: 'boolean', description: 'listen on a non-loopback --host although the server has no authentication yet', default: false },
  'data-dir': { type: 'string', description: 'keep state in this directory (in memory when absent)' },
  'pki-dir': { type: 'string', description: 'keep the cluster CA in this directory (default: <data-dir>/pki)' },
  ...storeFlags,
  kubeconfig: { type: 'string', description: 'also write a kubeconfig for this server here (the CA and a kubernetes-admin client certificate, over HTTPS)' },
  ...apiserverSecurityFlags,
  ...auditFlags,
  ...clusterClockFlags,
  ...seedFlags,
  supervised: {
    type: 'boolean',
    description:
      'run as the API server of `kubesim up` (which starts it so): serve its component control over the IPC channel; needs --data-dir and --kubeconfig',
    default: false,
  },
  'cluster-loops': {
    type: 'string',
    description:
      'the control loops the cluster runs, comma-separated or "none": admission that relies on one (ServiceAccount on serviceaccount, TaintNodesByCondition on node-lifecycle, ...) acts only when it runs; `kubesim up` passes its own',
    default: CONTROLLER_NAMES.join(','),
  },
  'clock-state': { type: 'string', description: "where a previous process's clock stood (JSON; `kubesim up` passes it to a restarted API server)" },
  'log-level': { type: 'string', description: `one of ${Object.keys(LOG_LEVELS).join(', ')}`, default: 'warn' },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim apiserver [flags]\n\nRuns only the API server (no loops, scheduler or nodes).\n\nFlags:\n${formatFlagHelp(apiserverFlags)}`;

/** parseClockState reads --clock-state; a bad one is a usage error. */
function parseClockState(flags: Flags): ClockState | undefined {
  const text = flags['clock-state'];
  if (text === undefined) return undefined;
  try {
    return JSON.parse(String(text)) as ClockState;
  } catch {
    throw new UsageError(`--clock-state must be JSON, got ${String(text).slice(0, 80)}`);
  }
}

/** supervisedOptions checks what --supervised needs and builds the wiring's inputs. */
function supervisedOptions(flags: Flags, clock: SupervisedOptions['clock'], random: SupervisedOptions['random']): SupervisedOptions {
  if (!process.channel) throw new UsageError('--supervised is for the API server process `kubesim up` starts (it needs its IPC channel)');
  if (!flags['data-dir'] || !flags['kubeconfig']) throw new UsageError('--supervised needs --data-dir and --kubeconfig');
  const dataDir = resolve(String(flags['data-dir']));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    peer: new IpcPeer(process),
    kubeconfig: resolve(String(flags['kubeconfig'])),
    // Made here, as buildServer would make it, because chaos adds fault rules to it.
    faults: new FaultInjector({ random: random.fork('faults') }),
    clock,
    random: random.fork('chaos'),
    dataDir,
  };
}

/** loopList reads --cluster-loops: catalog names, or none. */
function loopList(text: string): string[] {
  if (text === 'none' || text === '') return [];
  const names = text.split(',');
  const unknown = names.filter((name) => !isControllerName(name));
  if (unknown.length) throw new UsageError(`--cluster-loops: unknown loop(s) ${unknown.join(', ')}; known: ${CONTROLLER_NAMES.join(', ')}`);
  return names;
}

export async function apiserver(argv: string[]): Promise<void> {
  const { flags, positional } = parseFlags(argv, apiserverFlags);
  if (flags['help']) return void console.log(usage);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}\n\n${usage}`);
  const level = String(flags['log-level']);
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${Object.keys(LOG_LEVELS).join(', ')}`);
  const host = String(flags['host']);
  if (!isLoopbackHost(host) && !flags['allow-remote']) {
    throw new UsageError(
      `--host ${host} would let anyone who reaches this machine control the cluster: the API server has no authentication yet. Add --allow-remote if you accept that.`,
    );
  }
  const store = storeSpecFromFlags(flags);
  const stop = untilSignal();
  const clock = createClockFromFlags(flags, parseClockState(flags));
  const random = randomFromFlags(flags, 'apiserver');
  const supervised = flags['supervised'] ? supervisedOptions(flags, clock, random) : undefined;
  const wiring = supervised && supervisedPlugins(supervised);
  const server = await startApiServer({
    ...securityOptionsFromFlags(flags),
    host,
    port: Number(flags['port']),
    dataDir: flags['data-dir'] ? resolve(String(flags['data-dir'])) : undefined,
    pkiDir: flags['pki-dir'] ? resolve(String(flags['pki-dir'])) : undefined,
    store,
    logger: createLogger({ component: 'apiserver', level, clock }),
    clock,
    random,
    faults: supervised?.faults,
    plugins: wiring?.plugins,
    clusterLoops: loopList(String(flags['cluster-loops'])),
    audit: auditOptionsFromFlags(flags),
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    throw new UsageError(portInUseMessage(String(flags['port'])));
  });
  // Supervised, `kubesim up` says where it listens; alone, this process says it.
  if (supervised && wiring) connectToSupervisor(server, wiring.components, supervised);
  else {
    if (flags['kubeconfig']) writeKubeconfigFile(resolve(String(flags['kubeconfig'])), await serverKubeconfig(server));
    console.log(`kubesim apiserver listening on ${server.url}`);
  }
  await new Promise((done) => stop.signal.addEventListener('abort', done, { once: true }));
  await server.close();
}
