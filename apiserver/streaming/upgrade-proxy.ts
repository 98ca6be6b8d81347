/**
 * The API server's half of exec, attach and port-forward: like kube-apiserver's
 * UpgradeAwareHandler it sends the client's upgrade request on to the kubelet and, once the
 * kubelet switches protocols, copies bytes both ways until either side closes. A kubelet that
 * refuses (a Status, or a kubelet's plain-text error) is answered to the client as it came;
 * an unreachable kubelet is a 500 `error dialing backend`.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../api/api-error.js';
import { answerError, answerSocket } from './socket-answer.js';

/** Request headers the kubelet must not see: the client's credentials stay with the API server. */
const PRIVATE_HEADERS = ['authorization', 'cookie', 'host', 'proxy-authorization'];

/** proxyUpgrade forwards the upgrade to `location` and splices the two connections. */
export function proxyUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, location: URL): void {
  const upstream = httpRequest(location, { method: request.method, headers: forwardedHeaders(request.headers) });
  socket.on('close', () => upstream.destroy());
  upstream.on('upgrade', (response: IncomingMessage, kubelet: Duplex, kubeletHead: Buffer) => {
    socket.write(switchingProtocols(response));
    if (kubeletHead.length > 0) socket.write(kubeletHead);
    if (head.length > 0) kubelet.write(head);
    splice(socket, kubelet);
  });
  upstream.on('response', (response: IncomingMessage) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => answerSocket(socket, response.statusCode ?? 500, response.headers['content-type'] ?? 'text/plain', Buffer.concat(chunks)));
  });
  upstream.on('error', (err) => {
    if (!socket.writable) return;
    answerError(socket, new ApiError('InternalError', 500, `error dialing backend: ${err.message}`));
  });
  upstream.end();
}

function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const forwarded = { ...headers };
  for (const name of PRIVATE_HEADERS) delete forwarded[name];
  for (const name of Object.keys(forwarded)) if (name.startsWith('impersonate-')) delete forwarded[name];
  return forwarded;
}

/** switchingProtocols is the kubelet's 101 answer, passed on header for header. */
function switchingProtocols(response: IncomingMessage): string {
  const lines = [`HTTP/1.1 101 ${response.statusMessage ?? 'Switching Protocols'}`];
  for (let i = 0; i < response.rawHeaders.length; i += 2) lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** splice copies bytes both ways; either side ending or failing ends the other. */
function splice(client: Duplex, kubelet: Duplex): void {
  client.pipe(kubelet);
  kubelet.pipe(client);
  const end = () => {
    client.destroy();
    kubelet.destroy();
  };
  client.on('error', end);
  kubelet.on('error', end);
  client.on('close', end);
  kubelet.on('close', end);
}
