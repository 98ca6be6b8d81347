/**
 * kube-apiserver's x509 client-certificate authenticator (--client-ca-file): a request whose
 * TLS connection presented a certificate the cluster CA verifies is the user named by the
 * certificate's CN, in the groups named by its O's. A certificate that is presented but does
 * not verify (another CA, expired, not for client auth) is a 401, not anonymous.
 *
 * TLS verifies the certificate once per connection (the server asks for one with
 * requestCert and lets unverified connections through so bearer and anonymous clients can
 * connect); the user is worked out once per certificate, not per connection or request.
 */
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import type { UserInfo } from '../authz/user.js';
import { type Authenticator, unauthorized } from './authenticator.js';

/** What a connection's certificate makes of its requests: a user, none, or a bad credential. */
type Verdict = UserInfo | 'none' | 'rejected';

const verdicts = new WeakMap<object, Verdict>();

/** Users by certificate fingerprint: a test process opens hundreds of connections with the same
 * few certificates, and turning one into JavaScript (getPeerCertificate) costs more than the
 * rest of the connection's authentication. Bounded: cleared when it grows past its limit. */
const usersByFingerprint = new Map<string, Verdict>();
const MAX_REMEMBERED_CERTIFICATES = 1_000;

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
  const presented = socket.getPeerX509Certificate();
  if (!presented) return 'none';
  // Verified per connection by TLS; only the subject's reading is shared between connections.
  if (!socket.authorized) return 'rejected';
  const fingerprint = presented.fingerprint256;
  let verdict = usersByFingerprint.get(fingerprint);
  if (verdict === undefined) {
    verdict = subjectVerdict(socket);
    if (usersByFingerprint.size >= MAX_REMEMBERED_CERTIFICATES) usersByFingerprint.clear();
    usersByFingerprint.set(fingerprint, verdict);
  }
  return verdict;
}

/** subjectVerdict reads the user (CN) and groups (O) of a verified connection's certificate. */
function subjectVerdict(socket: TLSSocket): Verdict {
  const certificate = socket.getPeerCertificate();
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
