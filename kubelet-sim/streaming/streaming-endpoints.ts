/**
 * The kubelet's streaming endpoints, which the API server proxies pods/exec, pods/attach and
 * pods/portforward to:
 *
 *   /exec/{namespace}/{pod}/{container}?command=…&input=1&output=1&error=1&tty=1
 *   /attach/{namespace}/{pod}/{container}?input=1&output=1&error=1&tty=1
 *   /portForward/{namespace}/{pod}?port=8080
 *
 * Each request must upgrade to a WebSocket with a channel subprotocol (protocols.ts). The
 * order of the checks matters to kubectl, which retries a refused WebSocket upgrade over SPDY:
 * the pod and container are looked up first (so both attempts fail with the same kubelet
 * error), then the userland, then the protocol (an SPDY attempt gets a Status naming the
 * WebSocket subprotocols it could have used).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../../controllers/runtime/types.js';
import { ChannelSocket } from './channel-socket.js';
import type { PodUserlands } from './pod-userlands.js';
import { type PortForwardTarget, parsePorts, runPortForward } from './port-forward.js';
import {
  answerSocket,
  answerStatus,
  failureStatus,
  negotiate,
  offeredProtocols,
  PORT_FORWARD_PROTOCOLS,
  REMOTE_COMMAND_PROTOCOLS,
  unsupportedProtocolStatus,
} from './protocols.js';
import { parseRemoteCommandOptions, runRemoteCommand } from './remote-command.js';
import { runSpdyPortForward, SPDY_TUNNEL_PROTOCOL } from './spdy-port-forward.js';

export interface StreamingDeps {
  userlands: PodUserlands;
  logger: Logger;
}

type StreamKind = 'exec' | 'attach' | 'portForward';

/** The API's name of each endpoint, as a refusal names it. */
const ENDPOINT_NAMES = { exec: 'pods/exec', attach: 'pods/attach', portForward: 'pods/portforward' } as const;

interface StreamTarget {
  kind: StreamKind;
  namespace: string;
  pod: string;
  container: string;
}

/** The first path segment of each streaming endpoint, and how many segments follow it. */
const ENDPOINTS: Record<string, number> = { exec: 3, attach: 3, portForward: 2 };

/** isStreamingPath says whether a path is one of the streaming endpoints (a plain request to
 * one is answered `Upgrade request required`). */
export function isStreamingPath(parts: readonly string[]): boolean {
  return ENDPOINTS[parts[0] ?? ''] === parts.length - 1;
}

/** serveStreaming answers the upgrade requests of `server`; close() ends every open session. */
export function serveStreaming(server: Server, deps: StreamingDeps): { close(): void } {
  const sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const sessions = new Set<WebSocket>();
  // The protocol upgrade() negotiated, per request. ws rejects subprotocols that are not HTTP
  // tokens (kubectl's 'SPDY/3.1+portforward.k8s.io' has a '/'), so it is shown a placeholder
  // token and answers with the negotiated protocol.
  const negotiated = new WeakMap<IncomingMessage, string>();
  sockets.options.handleProtocols = (_protocols, request) => negotiated.get(request) ?? false;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    void deps.userlands.ready().then(
      () => upgradeOrFail(request, socket, head),
      (err: unknown) => fail(request, socket, err),
    );
  });
  const fail = (request: IncomingMessage, socket: Duplex, err: unknown) => {
    deps.logger.error({ err, url: request.url }, 'kubelet streaming request failed');
    answerStatus(socket, failureStatus(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`));
  };
  const upgradeOrFail = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      upgrade(deps, request, socket, (protocol, start) => {
        negotiated.set(request, protocol);
        request.headers['sec-websocket-protocol'] = 'negotiated';
        sockets.handleUpgrade(request, socket, head, (ws) => {
          sessions.add(ws);
          ws.on('close', () => sessions.delete(ws));
          ws.on('error', () => ws.terminate());
          start(new ChannelSocket(ws, protocol));
        });
      });
    } catch (err) {
      fail(request, socket, err);
    }
  };
  return {
    close: () => {
      for (const ws of sessions) ws.terminate();
      sockets.close();
    },
  };
}

type Accept = (protocol: string, start: (socket: ChannelSocket) => void) => void;

function upgrade(deps: StreamingDeps, request: IncomingMessage, socket: Duplex, accept: Accept): void {
  const target = targetOf(request);
  if (!target) return answerStatus(socket, failureStatus(404, 'NotFound', 'the server could not find the requested resource', {}));
  const { userlands } = deps;
  const problem =
    target.kind === 'portForward'
      ? userlands.pod(target.namespace, target.pod)
        ? undefined
        : ({ reason: 'PodNotFound', message: 'pod does not exist' } as const)
      : userlands.problem(target.namespace, target.pod, target.container);
  // The kubelet answers these in plain text; kubectl prints `unable to upgrade connection: <text>`.
  if (problem) return answerSocket(socket, problem.reason === 'PodNotFound' ? 404 : 500, 'text/plain; charset=utf-8', problem.message);
  const supported = supportedFor(target.kind);
  const protocol = isWebSocket(request) ? negotiate(offeredProtocols(request.headers['sec-websocket-protocol']), supported) : undefined;
  if (!protocol) return answerStatus(socket, unsupportedProtocolStatus(ENDPOINT_NAMES[target.kind], offerOf(request), supported));
  const query = new URL(request.url ?? '/', 'http://kubelet').searchParams;
  if (target.kind === 'portForward') {
    if (protocol === SPDY_TUNNEL_PROTOCOL) return acceptTunnel(deps, target, accept);
    const ports = parsePorts(query);
    if (typeof ports === 'string') return answerStatus(socket, failureStatus(400, 'BadRequest', ports));
    return accept(protocol, (channels) => {
      runPortForward(channels, portForwardTarget(userlands, target), ports);
      // A forward ends with its pod (deleted or replaced).
      const stop = userlands.whenStopped(target.namespace, target.pod);
      stop.signal.addEventListener('abort', () => channels.ws.close(1000), { once: true });
      channels.ws.on('close', stop.release);
    });
  }
  const options = parseRemoteCommandOptions(query, target.kind);
  const lookup = userlands.container(target.namespace, target.pod, target.container);
  if (!lookup.found) return answerSocket(socket, 500, 'text/plain; charset=utf-8', lookup.message);
  accept(protocol, (channels) => {
    const stop = userlands.whenStopped(target.namespace, target.pod, target.container);
    runRemoteCommand(channels, lookup.userland, options, stop.signal)
      .catch((err: unknown) => failed(deps, target, channels, err))
      .finally(stop.release);
  });
}

/** acceptTunnel serves kubectl's SPDY-over-WebSocket port-forward until its pod goes away. */
function acceptTunnel(deps: StreamingDeps, target: StreamTarget, accept: Accept): void {
  const { userlands } = deps;
  accept(SPDY_TUNNEL_PROTOCOL, (channels) => {
    runSpdyPortForward(channels.ws, portForwardTarget(userlands, target), (err) => deps.logger.error({ err, target }, 'port-forward session failed'));
    const stop = userlands.whenStopped(target.namespace, target.pod);
    stop.signal.addEventListener('abort', () => channels.ws.close(1000), { once: true });
    channels.ws.on('close', stop.release);
  });
}

/** failed reports a session whose userland threw, on the error channel as a kubelet does. */
function failed(deps: StreamingDeps, target: StreamTarget, channels: ChannelSocket, err: unknown): void {
  deps.logger.error({ err, target }, `${target.kind} session failed`);
  const message = `error executing command in container: ${(err as Error).message}`;
  channels.send(3, JSON.stringify({ metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 }));
  channels.ws.close(1011);
}

/** targetOf reads the endpoint and its pod from the request path (a port-forward's container
 * is the one declaring the first requested port, else the pod's first: they share a network). */
function targetOf(request: IncomingMessage): StreamTarget | undefined {
  const url = new URL(request.url ?? '/', 'http://kubelet');
  const parts = url.pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
  if (!isStreamingPath(parts)) return undefined;
  const [kind, namespace = '', pod = '', container = ''] = parts as [StreamKind, string?, string?, string?];
  return { kind, namespace, pod, container };
}

function supportedFor(kind: StreamKind | undefined): readonly string[] {
  return kind === 'portForward' ? PORT_FORWARD_PROTOCOLS : REMOTE_COMMAND_PROTOCOLS;
}

function isWebSocket(request: IncomingMessage): boolean {
  return (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** offerOf describes what a client offered: its Upgrade and the subprotocols or stream versions. */
function offerOf(request: IncomingMessage): string {
  const upgradeTo = request.headers.upgrade ?? '';
  const versions = isWebSocket(request)
    ? offeredProtocols(request.headers['sec-websocket-protocol'])
    : offeredProtocols(request.headers['x-stream-protocol-version'] as string | string[] | undefined);
  return versions.length > 0 ? `${upgradeTo} (${versions.join(', ')})` : upgradeTo;
}

/** portForwardTarget connects to the pod's network through one of its running containers. */
function portForwardTarget(userlands: PodUserlands, target: StreamTarget): PortForwardTarget {
  const pod = userlands.pod(target.namespace, target.pod);
  const containers = pod?.spec.containers ?? [];
  const uid = pod?.metadata.uid ?? '';
  return {
    sandboxId: uid.replaceAll('-', ''),
    connect(port) {
      const declaring = containers.find((c) => (c.ports ?? []).some((p) => p.containerPort === port)) ?? containers[0];
      const lookup = declaring && userlands.container(target.namespace, target.pod, declaring.name);
      return lookup?.found ? lookup.userland.connect?.(port) : undefined;
    },
  };
}
