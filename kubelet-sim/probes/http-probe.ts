/**
 * The kubelet's HTTP GET over a simulated connection: one request with `Connection: close`, the
 * status line read back; 200–399 is success, anything else fails with the kubelet's words.
 */
import type { UserlandConnection } from '../userland/contract.js';

/** KUBE_PROBE_USER_AGENT: the kubelet's User-Agent for probes (kube-probe/<major>.<minor>). */
export const KUBE_PROBE_USER_AGENT = 'kube-probe/1.33';

/** HttpProbeRequest is the request line's path and the headers to send. */
export interface HttpProbeRequest {
  path: string;
  /** Host header: the httpHeaders' Host, else host:port. */
  host: string;
  headers: ReadonlyArray<{ name: string; value: string }>;
}

/** formatRequest writes the request as Go's client sends it for a probe. */
export function formatRequest(request: HttpProbeRequest): string {
  const named = (name: string) => request.headers.find((header) => header.name.toLowerCase() === name.toLowerCase());
  const lines = [`GET ${request.path} HTTP/1.1`, `Host: ${request.host}`];
  if (!named('User-Agent')) lines.push(`User-Agent: ${KUBE_PROBE_USER_AGENT}`);
  if (!named('Accept')) lines.push('Accept: */*');
  for (const header of request.headers) if (header.name.toLowerCase() !== 'host') lines.push(`${header.name}: ${header.value}`);
  lines.push('Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** HttpAnswer: the status code, or the first line when it was not HTTP; undefined = closed silently. */
export type HttpAnswer = { kind: 'status'; code: number } | { kind: 'malformed'; line: string } | { kind: 'eof' };

/** exchange sends the request and resolves once the status line arrived or the server hung up. */
export function exchange(connection: UserlandConnection, request: string): Promise<HttpAnswer> {
  return new Promise((resolve) => {
    let text = '';
    const settle = (answer: HttpAnswer) => {
      resolve(answer);
      connection.end();
    };
    connection.onData((data) => {
      text += Buffer.from(data).toString('latin1');
      const end = text.indexOf('\n');
      if (end < 0) return;
      const line = text.slice(0, end).replace(/\r$/, '');
      const match = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(line);
      settle(match ? { kind: 'status', code: Number(match[1]) } : { kind: 'malformed', line });
    });
    connection.onEnd(() => resolve(text ? { kind: 'malformed', line: text } : { kind: 'eof' }));
    connection.write(new TextEncoder().encode(request));
  });
}
