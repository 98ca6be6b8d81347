/**
 * `kubesim up`'s side of its API server process (the other side: supervised-apiserver.ts).
 * Each time a process of the API server starts, linkApiServer answers its requests (component
 * status and control, shutdown), tells it which processes should be reporting activity, and
 * remembers the port it listens on and where its clock stands, so that a restart after a
 * crash comes back on the same port, with the same cluster time, on the same data dir.
 */
import type { ClockState } from '../../apiserver/api/machinery/cluster-clock.js';
import { API_SERVER_COMPONENT, type ClusterComponents, type ComponentAction } from '../components.js';
import type { IpcPeer } from '../ipc.js';
import type { Supervisor } from '../supervisor.js';
import { APISERVER_IPC, type ExpectedComponents } from './apiserver-ipc.js';

export interface ApiServerLinkOptions {
  supervisor: Supervisor;
  components: ClusterComponents;
  /** The API server's arguments, without --port and --clock-state (added here). */
  args: string[];
  port: number;
  /** The activity name of a supervised process (undefined for the API server). */
  reportNameOf(name: string): string | undefined;
  onShutdown(): void;
}

export interface ApiServerLink {
  /** Resolves with the URL once the first process listens; rejects if it exits first. */
  listening: Promise<string>;
  /** Says that every planned component has been started. */
  componentsStarted(): void;
}

export function linkApiServer(options: ApiServerLinkOptions): ApiServerLink {
  const { supervisor } = options;
  let port = options.port;
  let clockState: ClockState | undefined;
  const argsNow = () => [...options.args, '--port', String(port), ...(clockState ? ['--clock-state', JSON.stringify(clockState)] : [])];
  supervisor.add({ name: API_SERVER_COMPONENT, command: process.execPath, args: argsNow() });
  const apiPeer = () => supervisor.peer(API_SERVER_COMPONENT);
  let started = false;
  const expected = (): ExpectedComponents => ({
    started,
    names: options.components.names(),
    reporting: supervisor
      .status()
      .filter((c) => c.state === 'running')
      .flatMap((c) => options.reportNameOf(c.name) ?? []),
  });
  let resolveListening!: (url: string) => void;
  let rejectListening!: (err: Error) => void;
  let listened = false;
  const listening = new Promise<string>((resolve, reject) => {
    resolveListening = resolve;
    rejectListening = reject;
  });
  supervisor.onLaunch((name, peer) => {
    if (name !== API_SERVER_COMPONENT) {
      const component = options.reportNameOf(name);
      if (component) apiPeer()?.notify(APISERVER_IPC.launched, { component });
      return;
    }
    serveApiServer(peer, options);
    peer.onNotice<{ url: string; port: number }>(APISERVER_IPC.listening, (address) => {
      port = address.port;
      supervisor.setArgs(API_SERVER_COMPONENT, argsNow());
      peer.notify(APISERVER_IPC.expected, expected());
      listened = true;
      resolveListening(address.url);
    });
    peer.onNotice<string>(APISERVER_IPC.say, (line) => console.log(`kubesim: ${line}`));
    peer.onNotice<ClockState>(APISERVER_IPC.clock, (state) => {
      clockState = state;
      supervisor.setArgs(API_SERVER_COMPONENT, argsNow());
    });
  });
  supervisor.onChange(() => {
    const api = supervisor.status().find((c) => c.name === API_SERVER_COMPONENT);
    if (!listened && api && api.state !== 'running') rejectListening(new Error('the API server exited before it listened (its output is above)'));
    apiPeer()?.notify(APISERVER_IPC.expected, expected());
  });
  supervisor.start(API_SERVER_COMPONENT);
  return {
    listening,
    componentsStarted() {
      started = true;
      apiPeer()?.notify(APISERVER_IPC.expected, expected());
    },
  };
}

/** serveApiServer answers one API server process's requests. */
function serveApiServer(peer: IpcPeer, options: ApiServerLinkOptions): void {
  peer.handle(APISERVER_IPC.components, () => options.components.status());
  peer.handle(APISERVER_IPC.component, ({ name, action }: { name: string; action: ComponentAction }) => options.components.act(name, action));
  peer.handle(APISERVER_IPC.shutdown, () => {
    setImmediate(options.onShutdown);
    return { status: 'stopping' };
  });
}
