/**
 * The API server process of `kubesim up`, seen from inside: `kubesim up` supervises it like
 * every other component (restarts it on the same data dir after a crash), and the two talk
 * over the supervisor's IPC channel (cli/ipc.ts):
 *
 *   API server ──listening {url, port}──►  up   (so a restart keeps the port)
 *   API server ──clock {state}─────────►  up   (so a restart keeps the cluster time)
 *   API server ──components / component / shutdown──► up   (kubesim status|stop|start|down, chaos)
 *   up ──expected {components}─────────►  API server  (which processes should report activity)
 *   up ──launched {component}──────────►  API server  (a new process: forget the old one's report)
 *   API server ──say {line}────────────►  up   (a line for its terminal)
 *
 * The just-started state `kubesim reset` returns to is captured once the cluster first
 * settles after its components started, and kept in the data dir, so a restarted API server
 * resets to the same state.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ClockState, ClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import type { Random } from '../../apiserver/api/machinery/random.js';
import type { FaultInjector } from '../../apiserver/faults/injector.js';
import { createResetter } from '../../apiserver/kubesim/reset.js';
import type { RunningApiServer } from '../../apiserver/start-api-server.js';
import type { StoreSnapshot } from '../../store/index.js';
import { registerChaosRoutes } from '../chaos/chaos-routes.js';
import { kubeconfigNodes } from '../chaos/node-control.js';
import type { ComponentAction, ComponentControl, KilledStatus } from '../components.js';
import { registerControlRoutes } from '../control-routes.js';
import type { IpcPeer } from '../ipc.js';
import { METRICS_NOTICE } from '../metrics-endpoint.js';
import type { ComponentStatus } from '../supervisor.js';
import { APISERVER_IPC, type ExpectedComponents } from './apiserver-ipc.js';

/** The file in the data dir holding the baseline `kubesim reset` returns to. */
const BASELINE_FILE = 'reset-baseline.json';

/** RemoteComponents answers ComponentControl by asking `kubesim up` over IPC. */
class RemoteComponents implements ComponentControl {
  expected: ExpectedComponents = { names: [], reporting: [], started: false };

  constructor(private readonly peer: IpcPeer) {}

  names(): string[] {
    return this.expected.names;
  }

  status(): Promise<ComponentStatus[]> {
    return this.peer.request<ComponentStatus[]>(APISERVER_IPC.components);
  }

  act(name: string, action: 'kill'): Promise<KilledStatus>;
  act(name: string, action: ComponentAction): Promise<ComponentStatus>;
  act(name: string, action: ComponentAction): Promise<ComponentStatus> {
    return this.peer.request<ComponentStatus>(APISERVER_IPC.component, { name, action });
  }
}

export interface SupervisedOptions {
  peer: IpcPeer;
  kubeconfig: string;
  faults: FaultInjector;
  clock: ClusterClock;
  random: Random;
  dataDir: string;
}

/** supervisedPlugins are the routes the API server of `kubesim up` adds: the components'
 * control API and chaos. Returns them with the component view the wiring below feeds. */
export function supervisedPlugins(options: SupervisedOptions): { plugins: Array<(app: FastifyInstance) => void>; components: RemoteComponents } {
  const { peer } = options;
  const components = new RemoteComponents(peer);
  const notify = (line: string) => peer.notify(APISERVER_IPC.say, line);
  const chaos = { components, faults: options.faults, clock: options.clock, nodes: kubeconfigNodes(options.kubeconfig), random: options.random, notify };
  const shutdown = () => void peer.request(APISERVER_IPC.shutdown).catch(() => undefined);
  return {
    components,
    plugins: [(app) => registerControlRoutes(app, components, shutdown), (app) => void registerChaosRoutes(app, chaos)],
  };
}

/** connectToSupervisor tells `up` where the server listens and what time it is, follows what
 * `up` says of the components, and arranges the reset baseline. */
export function connectToSupervisor(server: RunningApiServer, components: RemoteComponents, options: SupervisedOptions): void {
  const { peer, clock } = options;
  const sendClock = (state: ClockState) => peer.notify(APISERVER_IPC.clock, { ...state, wallMs: Date.now() });
  clock.onChange(sendClock);
  sendClock(clock.state());
  server.control.expectComponents(() => components.expected.reporting);
  peer.onNotice<{ component: string }>(APISERVER_IPC.launched, ({ component }) => server.control.board.forget(component));
  let baselineArranged = false;
  peer.onNotice<ExpectedComponents>(APISERVER_IPC.expected, (expected) => {
    components.expected = expected;
    if (expected.started && !baselineArranged) {
      baselineArranged = true;
      arrangeBaseline(server, join(options.dataDir, BASELINE_FILE), (line) => peer.notify(APISERVER_IPC.say, line));
    }
  });
  peer.notify(APISERVER_IPC.listening, { url: server.url, port: server.port });
  peer.notify(METRICS_NOTICE, { url: `${server.url}/metrics` });
}

/** arrangeBaseline adopts the baseline an earlier process of this server saved, or captures
 * one once the just-started cluster settles (and saves it for the next process). */
function arrangeBaseline(server: RunningApiServer, file: string, say: (line: string) => void): void {
  const resetter = createResetter(server.store, server.control);
  if (existsSync(file)) {
    resetter.adopt(JSON.parse(readFileSync(file, 'utf8')) as StoreSnapshot);
    server.control.reset = () => resetter.reset();
    return;
  }
  const captured = server.control.settle({ timeoutMs: 120_000 }).then(() => {
    writeFileSync(file, JSON.stringify(resetter.capture()), { mode: 0o600 });
    say('every loop has settled; `npx kubesim reset` returns the cluster to this state');
  });
  captured.catch((err: Error) => say(`the cluster did not settle after starting, so reset is unavailable: ${err.message}`));
  // A reset asked for while the cluster is still starting waits for the baseline.
  server.control.reset = async () => {
    await captured;
    return resetter.reset();
  };
}
