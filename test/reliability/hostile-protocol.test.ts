/**
 * Requests that fail below the API (bad percent-encoding, unreadable HTTP, an unknown Expect, a
 * compressed Transfer-Encoding) are answered with a Kubernetes Status like every other error,
 * not with Node's or fastify's own bodies (or none).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

/** rawHttp sends `text` as is over a new connection and returns the status code and the body. */
function rawHttp(url: string, text: string): Promise<{ code: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      resolve({ code: Number(head.split(' ')[1]), body: rest.join('\r\n\r\n') });
    });
  });
}

const CM = '/api/v1/namespaces/default/configmaps';

describe('protocol-level errors', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  });
  afterAll(() => cluster.stop());

  it.each([
    ['a bad percent-escape in the path', `GET ${CM}/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 400, /not valid percent-encoding/],
    ['a truncated percent-escape', `GET ${CM}/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 400, /not valid percent-encoding/],
    ['an unreadable request line', 'GARBAGE\r\n\r\n', 400, /malformed HTTP request/],
    [
      'Transfer-Encoding: gzip, chunked',
      `POST ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      400,
      /unsupported Transfer-Encoding "gzip, chunked"/,
    ],
    [
      'Expect: garbage',
      `POST ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: garbage\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      417,
      /unsupported Expect header "garbage"/,
    ],
  ])('answers %s with a Status', async (_name, text, code, message) => {
    const answer = await rawHttp(cluster.url, text);
    expect(answer.code).toBe(code);
    const status = JSON.parse(answer.body);
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', code });
    expect(status.message).toMatch(message);
    expect((await request(`${cluster.url}/readyz`)).status).toBe(200);
  });

  it('still serves chunked bodies and Expect: 100-continue', async () => {
    const body = JSON.stringify({ metadata: { name: 'chunked' } });
    const chunked = await rawHttp(
      cluster.url,
      `POST ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(chunked.code).toBe(201);
    const continued = await rawHttp(cluster.url, `GET ${CM}/chunked HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    // Node answers 100 Continue first, then the response itself.
    expect(continued.code).toBe(100);
    expect(continued.body).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*"kind":"ConfigMap"/);
  });
});
