/**
 * kube-apiserver's x509 client-certificate authenticator (--client-ca-file): a request whose
 * TLS connection presented a certificate the cluster CA verifies is the user named by the
 * certificate's CN, in the groups named by its O's. A certificate that is presented but does
 * not verify (another CA, expired, not for client auth) is a 401, not anonymous.
 *
 * TLS verifies the certificate once per connection (the server asks for one with
 * requestCert and lets unverified connections through so bearer and anonymous clients can
 * connect); the user is worked out once per connection too, not per request.
 */
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import type { UserInfo } from '../authz/user.js';
import { type Authenticator, unauthorized } from './authenticator.js';

/** What a connection's certificate makes of its requests: a user, none, or a bad credential. */
type Verdict = UserInfo | 'none' | 'rejected';

const verdicts = new WeakMap<object, Verdict>();

/** x509Authenticator authenticates requests by their connection's client certificate. */
export function x509Authenticator(): Authenticator {
  return (request: FastifyRequest) => {
    const socket = request.raw.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== 'function') return undefined; // plain HTTP
    let verdict = verdicts.get(socket);
    if (verdict === undefined) {
      verdict = verdictOf(socket);
      verdicts.set(socket, verdict);
    }
    if (verdict === 'rejected') throw unauthorized();
    return verdict === 'none' ? undefined : verdict;
  };
}

function verdictOf(socket: TLSSocket): Verdict {
  const certificate = socket.getPeerCertificate();
  if (!certificate || Object.keys(certificate).length === 0) return 'none';
  if (!socket.authorized) return 'rejected';
  const username = firstValue(certificate.subject?.CN);
  // kube-apiserver refuses a verified certificate without a CN as well.
  if (!username) return 'rejected';
  const groups = allValues(certificate.subject?.O);
  return { username, groups: groups.includes('system:authenticated') ? groups : [...groups, 'system:authenticated'] };
}

/** node:tls gives a subject field as a string when it occurs once, an array when more. */
function allValues(field: string | string[] | undefined): string[] {
  if (field === undefined) return [];
  return Array.isArray(field) ? field : [field];
}

function firstValue(field: string | string[] | undefined): string | undefined {
  return allValues(field)[0];
}
