import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/eventually.js';
import { podObject, run, userlandFor } from '../../../test/support/userland.js';
import type { ContainerUserland } from '../contract.js';

/** exchange sends `request` over a new connection and returns what came back once `done` says so. */
async function exchange(userland: ContainerUserland, port: number, request: string, done: (text: string, ended: boolean) => boolean) {
  const connection = userland.connect?.(port);
  if (!connection) throw new Error(`nothing listens on ${port}`);
  let text = '';
  let ended = false;
  connection.onData((data) => {
    text += Buffer.from(data).toString('utf8');
  });
  connection.onEnd(() => {
    ended = true;
  });
  connection.write(new TextEncoder().encode(request));
  await eventually(() => expect(done(text, ended), JSON.stringify(text)).toBe(true));
  connection.end();
  return { text, ended };
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;

describe('simulated servers', () => {
  it('nginx serves its document root from the container filesystem, naming the pod', async () => {
    const { userland } = userlandFor(podObject('web-7d4b9', { image: 'nginx:1.27' }));
    const page = await exchange(userland, 80, get('/', 'Connection: close\r\n'), (_text, ended) => ended);
    expect(page.text).toMatch(/^HTTP\/1\.1 200 OK\r\nServer: nginx\/1\.27\.5\r\nDate: Fri, 02 Jan 2026 03:04:05 GMT\r\nContent-Type: text\/html\r\n/);
    expect(page.text).toContain('<h1>Welcome to nginx!</h1>');
    expect(page.text).toContain('Served by pod <b>web-7d4b9</b>.');
    const missing = await exchange(userland, 80, get('/nope') + get('/50x.html'), (text) => text.includes('An error occurred.'));
    expect(missing.text).toMatch(/^HTTP\/1\.1 404 Not Found\r\n[\s\S]*<center><h1>404 Not Found<\/h1><\/center>[\s\S]*HTTP\/1\.1 200 OK\r\n/);
    // The one-line lesson: delete the page and the server (and an httpGet probe) sees the difference.
    await run(userland, ['rm', '/usr/share/nginx/html/index.html']);
    expect((await exchange(userland, 80, get('/'), (text) => text.includes('</html>'))).text).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  });

  it('listens only when the container runs the image command, on its port', () => {
    expect(userlandFor(podObject('w', { image: 'nginx' })).userland.connect?.(81)).toBeUndefined();
    expect(userlandFor(podObject('s', { image: 'nginx', container: { command: ['sleep', '3600'] } })).userland.connect?.(80)).toBeUndefined();
    expect(userlandFor(podObject('b')).userland.connect?.(80)).toBeUndefined();
    expect(userlandFor(podObject('n', { image: 'nginx', container: { command: ['nginx', '-g', 'daemon off;'] } })).userland.connect?.(80)).toBeDefined();
  });

  it('httpd and http-echo answer HTTP', async () => {
    const httpd = userlandFor(podObject('apache', { image: 'httpd:2.4' })).userland;
    expect((await exchange(httpd, 80, get('/'), (text) => text.includes('</html>'))).text).toContain('<h1>It works!</h1>\n<p>Served by pod <b>apache</b>.</p>');
    const echo = userlandFor(podObject('echo', { image: 'hashicorp/http-echo:1.0', container: { args: ['-text=hello from echo', '-listen=:8080'] } })).userland;
    expect(echo.connect?.(5678)).toBeUndefined();
    expect((await exchange(echo, 8080, get('/any'), (text) => text.endsWith('hello from echo\n'))).text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it('redis answers PING, SET and GET in RESP and inline forms', async () => {
    const { userland } = userlandFor(podObject('cache', { image: 'redis:7' }));
    const replies = await exchange(userland, 6379, 'PING\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\nv1\r\nGET k\r\nGET none\r\nFLY\r\n', (text) =>
      text.includes('-ERR'),
    );
    expect(replies.text).toBe("+PONG\r\n+OK\r\n$2\r\nv1\r\n$-1\r\n-ERR unknown command 'FLY', with args beginning with: \r\n");
  });
  it('postgres runs the v3 start-up for its role and databases, and answers SELECT 1', async () => {
    const env = [
      { name: 'POSTGRES_USER', value: 'app' },
      { name: 'POSTGRES_DB', value: 'shop' },
    ];
    const { userland } = userlandFor(podObject('db', { image: 'postgres:17', container: { env } }));
    const connection = userland.connect?.(5432);
    if (!connection) throw new Error('nothing listens on 5432');
    let received = Buffer.alloc(0);
    connection.onData((data) => {
      received = Buffer.concat([received, data]);
    });
    const int32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
    const startup = (pairs: string) => Buffer.concat([int32(8 + Buffer.byteLength(pairs) + 1), int32(196608), Buffer.from(`${pairs}\0`)]);
    // psql first asks for TLS (SSLRequest) and goes on in clear after an 'N'.
    connection.write(Buffer.concat([int32(8), int32(80877103)]));
    await eventually(() => expect(received.toString('latin1')).toBe('N'));
    connection.write(startup('user\0app\0database\0shop\0'));
    await eventually(() => expect(received.subarray(-6).toString('latin1')).toBe('Z\0\0\0\x05I'));
    const greeting = received.toString('latin1');
    expect(greeting.slice(1, 10)).toBe('R\0\0\0\x08\0\0\0\0'); // AuthenticationOk
    expect(greeting).toContain('server_version\x0017.4 (Debian 17.4-1.pgdg120+2)\0');
    received = Buffer.alloc(0);
    const select = Buffer.from('SELECT 1;\0');
    connection.write(Buffer.concat([Buffer.from('Q'), int32(select.length + 4), select]));
    await eventually(() => expect(received.subarray(-6).toString('latin1')).toBe('Z\0\0\0\x05I'));
    const answer = received.toString('latin1');
    expect(answer).toContain('?column?');
    expect(answer).toContain('D\0\0\0\x0b\0\x01\0\0\0\x011'); // one row, one cell: "1"
    expect(answer).toContain('C\0\0\0\x0dSELECT 1\0');
    connection.end();

    const stranger = userland.connect?.(5432);
    let refused = '';
    let ended = false;
    stranger?.onData((data) => {
      refused += Buffer.from(data).toString('latin1');
    });
    stranger?.onEnd(() => {
      ended = true;
    });
    stranger?.write(startup('user\0postgres\0'));
    await eventually(() => expect(ended).toBe(true));
    expect(refused).toContain('SFATAL\0');
    expect(refused).toContain('C28000\0Mrole "postgres" does not exist\0');
  });
});
