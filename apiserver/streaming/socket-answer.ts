/** Answers on the raw socket of an upgrade request (fastify never sees one): a complete HTTP
 * response, then close — the client reads a Status, never a bare EOF. */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiError } from '../api/api-error.js';
import { socketAuditId } from '../audit/audit-id.js';

/** answerSocket writes one HTTP response with `body` and ends the connection (with the
 * upgrade's Audit-Id, as every answer of the server carries one). */
export function answerSocket(socket: Duplex, code: number, contentType: string, body: string | Buffer): void {
  const head = [
    `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  const auditID = socketAuditId(socket);
  if (auditID) head.push(`Audit-Id: ${auditID}`);
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), Buffer.isBuffer(body) ? body : Buffer.from(body)]));
}

/** answerError answers with the error's Status. */
export function answerError(socket: Duplex, error: ApiError): void {
  answerSocket(socket, error.code, 'application/json', JSON.stringify(error.toStatus()));
}
