/**
 * Answers for requests that fail below the API: a path that is not valid percent-encoding, a
 * request line Node's HTTP parser cannot read, an `Expect` other than 100-continue, a
 * Transfer-Encoding other than chunked. Node and fastify answer these with bodies of their own
 * (or none); here every one becomes a Kubernetes Status, as every other error of the server.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { ApiError, badRequest } from '../api/api-error.js';

function statusJson(error: ApiError): string {
  return JSON.stringify(error.toStatus());
}

/** protocolErrorOptions are the fastify options that route its own errors to a Status. */
export function protocolErrorOptions(): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors: (error, _request, reply) => {
      const apiError =
        error.code === 'FST_ERR_BAD_URL' ? badRequest(`the request path is not valid percent-encoding: ${error.message}`) : badRequest(error.message);
      (reply as FastifyReply).code(apiError.code).type('application/json').send(statusJson(apiError));
    },
    clientErrorHandler: (error, socket: Socket) => {
      if (!socket.writable) return void socket.destroy();
      const { code, rawPacket } = error as unknown as { code?: string; rawPacket?: unknown };
      const tooLarge = code === 'HPE_HEADER_OVERFLOW';
      const apiError = tooLarge
        ? new ApiError(
            'BadRequest',
            431,
            'the request line and headers are larger than the 16 KiB this server reads: shorten the URL (selectors, continue tokens) or the headers',
          )
        : badRequest(`malformed HTTP request: ${code ?? error.message}`);
      // A HEAD request gets no body, or its client would read the body as the next response.
      const body = Buffer.isBuffer(rawPacket) && rawPacket.toString('latin1', 0, 5) === 'HEAD ' ? '' : statusJson(apiError);
      const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
      socket.end(
        `HTTP/1.1 ${apiError.code} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

/** registerProtocolGuards answers unsupported Expect and Transfer-Encoding values with a Status. */
export function registerProtocolGuards(app: FastifyInstance): void {
  // Node emits checkExpectation for any Expect but 100-continue; its default answer has no body.
  app.server.on('checkExpectation', (request, response) => {
    const body = statusJson(
      new ApiError('BadRequest', 417, `unsupported Expect header ${JSON.stringify(request.headers['expect'])}: only 100-continue is understood`),
    );
    response.writeHead(417, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    response.end(body);
  });
  app.addHook('onRequest', async (request) => {
    const encoding = request.headers['transfer-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'chunked') {
      throw badRequest(`unsupported Transfer-Encoding ${JSON.stringify(encoding)}: only chunked is accepted; send the body uncompressed`);
    }
  });
}
