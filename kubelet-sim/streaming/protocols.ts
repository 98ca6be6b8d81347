/**
 * Which streaming protocols the kubelet's exec, attach and port-forward endpoints speak, how a
 * client's offer is matched against them, and the answers sent on the raw socket before any
 * WebSocket exists (errors, refusals).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** exec and attach, newest first: v5 (kubectl 1.30+, with the stdin close signal), v4 (the
 * Python client, older kubectl, client libraries) and v4's base64 text variant (browsers). */
export const REMOTE_COMMAND_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io'] as const;

/** port-forward: SPDY tunnelled in a WebSocket (kubectl 1.31+, spdy-port-forward.ts), and
 * WebSocket channels (@kubernetes/client-node, the Python client). */
export const PORT_FORWARD_PROTOCOLS = [
  'SPDY/3.1+portforward.k8s.io',
  'v4.channel.k8s.io',
  'v4.base64.channel.k8s.io',
  'channel.k8s.io',
  'base64.channel.k8s.io',
] as const;

/** offeredProtocols lists the Sec-WebSocket-Protocol values a client offered, in its order. */
export function offeredProtocols(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** negotiate picks the first protocol of the client's offer the server supports, as wsstream does. */
export function negotiate(offered: readonly string[], supported: readonly string[]): string | undefined {
  return offered.find((protocol) => supported.includes(protocol));
}

/** A v1 Status as the kubelet and API server write it on the wire. */
export interface WireStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; kind?: string; causes?: Array<{ reason?: string; message?: string; field?: string }> };
  code: number;
}

/** failureStatus builds the Status of a refused request. */
export function failureStatus(code: number, reason: string, message: string, details?: WireStatus['details']): WireStatus {
  const status: WireStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return status;
}

/** answerSocket writes a complete HTTP response on an upgrade request's socket and closes it:
 * the client reads an answer, never a bare EOF. */
export function answerSocket(socket: Duplex, code: number, contentType: string, body: string): void {
  const head = [
    `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** answerStatus answers an upgrade request's socket with a Status. */
export function answerStatus(socket: Duplex, status: WireStatus): void {
  answerSocket(socket, status.code, 'application/json', JSON.stringify(status));
}

/** What a client refused for its protocol can use instead. */
const ADVICE: Record<'remote-command' | 'port-forward', string> = {
  'remote-command':
    'SPDY is not supported by kubesim: use kubectl 1.30 or newer (WebSocket by default) or a client that speaks v5.channel.k8s.io or v4.channel.k8s.io',
  'port-forward':
    "SPDY is not supported by kubesim: use kubectl 1.31 or newer (SPDY tunnelled in a WebSocket, 'SPDY/3.1+portforward.k8s.io') " +
    'or a client that speaks v4.channel.k8s.io',
};

/** unsupportedProtocolStatus is the refusal of a client that offers no protocol the endpoint
 * speaks (an SPDY-only client, or a WebSocket client with other subprotocols); its details
 * list the supported subprotocols. */
export function unsupportedProtocolStatus(
  endpoint: 'pods/exec' | 'pods/attach' | 'pods/portforward',
  offered: string,
  supported: readonly string[],
): WireStatus {
  const advice = ADVICE[endpoint === 'pods/portforward' ? 'port-forward' : 'remote-command'];
  return failureStatus(
    400,
    'BadRequest',
    `unable to upgrade connection: ${endpoint} is served over WebSocket with the subprotocols ${supported.join(', ')}; ` +
      `the client offered ${offered === '' ? 'none of them' : offered}. ${advice}`,
    { causes: supported.map((protocol) => ({ reason: 'SupportedProtocol', message: protocol, field: 'Sec-WebSocket-Protocol' })) },
  );
}
