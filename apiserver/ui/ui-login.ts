/**
 * Logging in to the live view on a server that authenticates. A browser cannot present the
 * admin's client certificate or bearer token by itself, so the server keeps a login token in
 * its PKI directory (`ui-login.token`, 0600, created at first start); `kubesim up` prints the
 * live view's URL with it (`/kubesim/ui/?token=…`). Opening that URL exchanges the token for
 * a session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS) and redirects to the bare
 * URL, so the token leaves the address bar and the history. Requests carrying the cookie are
 * the cluster's administrator (kubernetes-admin, system:masters), as whoever could read the
 * PKI directory is. Cross-origin writes stay refused by the browser guard, and SameSite=Strict
 * keeps other sites' requests from carrying the cookie at all.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_USER } from '../api/machinery/admin-user.js';
import { type Authenticator, unauthorized } from '../authn/authenticator.js';
import type { UserInfo } from '../authz/user.js';
import { UI_PATH } from './ui-path.js';

export const UI_SESSION_COOKIE = 'kubesim-ui-session';
const LOGIN_TOKEN_FILE = 'ui-login.token';

const UI_USER: UserInfo = { username: ADMIN_USER.username, groups: [...ADMIN_USER.groups] };

/** uiLoginTokenFile: where a PKI directory keeps the live view's login token. */
export function uiLoginTokenFile(pkiDir: string): string {
  return join(pkiDir, LOGIN_TOKEN_FILE);
}

/** loadOrCreateUiLoginToken returns the login token kept in `pkiDir`, creating it the first time. */
export function loadOrCreateUiLoginToken(pkiDir: string): string {
  const file = uiLoginTokenFile(pkiDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(32).toString('base64url');
  mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/** The session cookie's value: derived from the login token, so it is not the token itself
 * and outlives a restart of the server. */
function sessionOf(loginToken: string): string {
  return createHmac('sha256', loginToken).update('kubesim live view session').digest('base64url');
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function loginTokenOf(request: FastifyRequest): string | undefined {
  if (!request.url.startsWith(UI_PATH)) return undefined;
  const token = (request.query as Record<string, unknown> | undefined)?.['token'];
  return typeof token === 'string' ? token : undefined;
}

/** uiLogin is the live view's authenticator (the session cookie, or the login token on the
 * page's own URL; a wrong one is a 401) and the route hook that trades the token for the cookie. */
export function uiLogin(loginToken: string): { authenticator: Authenticator; register(app: FastifyInstance): void } {
  const session = sessionOf(loginToken);
  const authenticator: Authenticator = (request) => {
    const cookie = cookieOf(request, UI_SESSION_COOKIE);
    const token = loginTokenOf(request);
    if (cookie === undefined && token === undefined) return undefined;
    if ((cookie !== undefined && same(cookie, session)) || (token !== undefined && same(token, loginToken))) return UI_USER;
    throw unauthorized();
  };
  const register = (app: FastifyInstance) => {
    app.addHook('preHandler', async (request, reply) => {
      if (loginTokenOf(request) === undefined) return;
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${UI_SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict${secure}`);
      reply.header('cache-control', 'no-store');
      return reply.redirect(UI_PATH);
    });
  };
  return { authenticator, register };
}
