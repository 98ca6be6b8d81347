/**
 * Authentication, as kube-apiserver runs it: each request passes the authenticators in order
 * (client certificate, bearer token, ...); the first that recognises a credential decides who
 * the request is from. A credential that is present but wrong is a 401, never a fall-through to
 * anonymous. A request carrying no credential is `system:anonymous` when anonymous requests are
 * enabled (kube-apiserver's --anonymous-auth, on by default), else a 401.
 *
 * The user is set on the fastify request (`request.user`) before any route runs; authorization
 * (apiserver/authz) and admission read it from there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../api/api-error.js';
import type { UserInfo } from '../authz/user.js';

/** The user of a request that carries no credential. */
export const ANONYMOUS_USER: UserInfo = Object.freeze({ username: 'system:anonymous', groups: Object.freeze(['system:unauthenticated']) });

/**
 * An Authenticator looks for its kind of credential on a request: it returns the user when it
 * finds a valid one, undefined when the request carries none of its kind, and throws
 * `unauthorized()` when the credential is there but invalid (expired, bad signature, unknown).
 */
export type Authenticator = (request: FastifyRequest) => UserInfo | undefined | Promise<UserInfo | undefined>;

export interface AuthenticationOptions {
  /** In kube-apiserver's order: x509 client certificates, then bearer tokens. */
  authenticators: readonly Authenticator[];
  /** --anonymous-auth: a request with no credential is system:anonymous (true) or a 401 (false). */
  anonymous: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made the request: authentication's answer, replaced by the impersonated user when
     * the request impersonates one (apiserver/authz/impersonation.ts). */
    user: UserInfo;
  }
}

/** unauthorized is kube-apiserver's 401 Status: the message never says which check failed. */
export function unauthorized(): ApiError {
  return new ApiError('Unauthorized', 401, 'Unauthorized');
}

/** authenticate runs the authenticators in order on one request. */
export async function authenticate(request: FastifyRequest, options: AuthenticationOptions): Promise<UserInfo> {
  return authenticateFrom(request, options, 0);
}

/**
 * authenticateFrom runs the authenticators from index `from` on: synchronously while they answer
 * synchronously (a client certificate's verdict, no credential at all), so most requests pay no
 * promise; it turns asynchronous at the first authenticator that returns a promise.
 */
function authenticateFrom(request: FastifyRequest, options: AuthenticationOptions, from: number): UserInfo | Promise<UserInfo> {
  const { authenticators } = options;
  for (let i = from; i < authenticators.length; i++) {
    const user = authenticators[i]!(request);
    if (user instanceof Promise) return user.then((found) => found ?? authenticateFrom(request, options, i + 1));
    if (user) return user;
  }
  if (options.anonymous) return ANONYMOUS_USER;
  throw unauthorized();
}

/** registerAuthentication sets `request.user` on every request before its route runs. A
 * callback-style hook: fastify continues at once when the user is known synchronously. */
export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  app.decorateRequest('user', null as unknown as UserInfo);
  app.addHook('onRequest', (request, _reply, done) => {
    let user: UserInfo | Promise<UserInfo>;
    try {
      user = authenticateFrom(request, options, 0);
    } catch (err) {
      return done(err as Error);
    }
    if (!(user instanceof Promise)) {
      request.user = user;
      return done();
    }
    user.then((found) => {
      request.user = found;
      done();
    }, done);
  });
}
