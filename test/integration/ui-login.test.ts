/**
 * The live view's login on a server that authenticates: the login token in the page's URL is
 * traded for an HttpOnly, SameSite=Strict session cookie, requests with the cookie are the
 * administrator, a wrong token or cookie is a 401, and cross-origin writes stay refused.
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LIVE_SOCKET_PATH } from '../../apiserver/ui/live-view.js';
import { UI_PATH } from '../../apiserver/ui/ui-path.js';
import { writeTokenFile } from '../support/token-file.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const tokenFile = () => writeTokenFile(['admin-token,kubernetes-admin,admin-uid,"system:masters"']);

describe('live view login', () => {
  const cluster = useTestCluster({ lifetime: 'file', tokenAuthFile: tokenFile(), token: 'admin-token' });
  const whoami = (headers: Record<string, string>) =>
    fetch(`${cluster.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });

  it('trades the login token for a session cookie that authenticates as the administrator', async () => {
    const token = cluster.server.uiLoginToken;
    expect(token).toMatch(/^[\w-]{43}$/);
    const login = await fetch(`${cluster.url}${UI_PATH}?token=${token}`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe(UI_PATH);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^kubesim-ui-session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0] ?? '';
    expect(cookie).not.toContain(token);

    const answered = await whoami({ cookie });
    expect(((await answered.json()) as any).status.userInfo.username).toBe('kubernetes-admin');
    const crossOrigin = await whoami({ cookie, origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
  });

  it('refuses a wrong login token or session cookie', async () => {
    expect((await fetch(`${cluster.url}${UI_PATH}?token=wrong`, { redirect: 'manual' })).status).toBe(401);
    expect((await whoami({ cookie: 'kubesim-ui-session=forged' })).status).toBe(401);
  });
});

describe('live view socket under RBAC', () => {
  const cluster = useTestCluster({ lifetime: 'file', tokenAuthFile: tokenFile(), token: 'admin-token', security: { authorization: 'RBAC' } });
  const socketUrl = () => `${cluster.url.replace(/^http/, 'ws')}${LIVE_SOCKET_PATH}`;

  /** openSocket resolves with the upgrade's outcome: 'open', or the refused status code. */
  const openSocket = (headers: Record<string, string>) =>
    new Promise<'open' | number>((resolve, reject) => {
      const ws = new WebSocket(socketUrl(), { headers });
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      ws.on('error', reject);
    });

  it('refuses an anonymous upgrade and opens one the session cookie authenticates', async () => {
    expect(await openSocket({})).toBe(403);
    expect(await openSocket({ cookie: 'kubesim-ui-session=forged' })).toBe(401);
    const login = await fetch(`${cluster.url}${UI_PATH}?token=${cluster.server.uiLoginToken}`, { redirect: 'manual' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(await openSocket({ cookie })).toBe('open');
  });
});
