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
});
