/**
 * The simulated web servers: nginx and httpd serve the files of their document root from the
 * container's filesystem (so `rm index.html` makes them answer 404), http-echo answers its
 * `-text`. Requests are parsed from the connection's bytes; connections are kept alive.
 */
import { formatDate } from '../commands/system.js';
import type { ContainerState } from '../process.js';
import { textOf } from '../shell/streams.js';
import { bytesOf, concat, joinPath, splitPath } from '../vfs.js';
import type { ServerFactory } from './connection.js';

interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly version: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly raw: string;
}

interface HttpResponse {
  readonly status: number;
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array | string;
}

const REASONS: Record<number, string> = { 200: 'OK', 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 405: 'Not Allowed' };

/** httpDate: an IMF-fixdate (`Fri, 02 Jan 2026 03:04:05 GMT`). */
const httpDate = (ms: number): string => formatDate(ms, '%a, %d %b %Y %H:%M:%S GMT');

/** httpServer: a server factory answering each request with `handle`. */
export function httpServer(serverName: string, container: ContainerState, handle: (request: HttpRequest) => HttpResponse): ServerFactory {
  return (reply, close) => {
    let buffer: Uint8Array = new Uint8Array(0);
    return {
      receive(data) {
        buffer = concat(buffer, data);
        for (;;) {
          const text = textOf(buffer);
          const end = text.indexOf('\r\n\r\n');
          if (end < 0) return;
          const request = parseRequest(text.slice(0, end));
          buffer = buffer.subarray(bytesOf(text.slice(0, end + 4)).length);
          const response = request ? handle(request) : { status: 400, body: errorPage(serverName, 400) };
          const body = request?.method === 'HEAD' ? new Uint8Array(0) : bytesOf(response.body);
          const keepAlive = request !== undefined && request.headers.get('connection')?.toLowerCase() !== 'close' && request.version === 'HTTP/1.1';
          const headers: Array<readonly [string, string]> = [
            ['Server', serverName],
            ['Date', httpDate(container.clock.now())],
            ...(response.headers ?? [['Content-Type', 'text/html']]),
            ['Content-Length', String(bytesOf(response.body).length)],
            ['Connection', keepAlive ? 'keep-alive' : 'close'],
          ];
          reply(`HTTP/1.1 ${response.status} ${REASONS[response.status] ?? ''}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
          if (body.length > 0) reply(body);
          if (!keepAlive) return close();
        }
      },
    };
  };
}

function parseRequest(head: string): HttpRequest | undefined {
  const [requestLine = '', ...lines] = head.split('\r\n');
  const match = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(requestLine);
  if (!match) return undefined;
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { method: match[1]!, path: match[2]!, version: match[3]!, headers, raw: head };
}

function errorPage(serverName: string, status: number): string {
  const title = `${status} ${REASONS[status] ?? ''}`;
  if (serverName.startsWith('nginx'))
    return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>${serverName}</center>\r\n</body>\r\n</html>\r\n`;
  return `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>${title}</title>\n</head><body>\n<h1>${REASONS[status]}</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n`;
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  txt: 'text/plain',
  css: 'text/css',
  js: 'application/javascript',
  json: 'application/json',
};

/** staticFiles serves GET/HEAD from a document root in the container's filesystem. */
export function staticFiles(serverName: string, container: ContainerState, root: string): ServerFactory {
  return httpServer(serverName, container, (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return { status: 405, body: errorPage(serverName, 405) };
    const path = joinPath(splitPath(decodeURIComponent(request.path.split('?')[0] ?? '/'), '/'));
    let node = container.fs.stat(`${root}${path}`);
    let served = path;
    if (node?.kind === 'dir') {
      served = joinPath([...splitPath(path), 'index.html']);
      node = container.fs.stat(`${root}${served}`);
      if (!node) return { status: 403, body: errorPage(serverName, 403) };
    }
    if (node?.kind !== 'file') return { status: 404, body: errorPage(serverName, 404) };
    const extension = served.split('.').at(-1) ?? '';
    return {
      status: 200,
      headers: [
        ['Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream'],
        ['Last-Modified', httpDate(node.mtime)],
        ['Accept-Ranges', 'bytes'],
      ],
      body: node.data,
    };
  });
}

/** echoText: hashicorp/http-echo's answer — its `-text` argument and a newline, for every path. */
export function echoText(container: ContainerState, text: string): ServerFactory {
  return httpServer('', container, () => ({ status: 200, headers: [['Content-Type', 'text/plain; charset=utf-8']], body: `${text}\n` }));
}
