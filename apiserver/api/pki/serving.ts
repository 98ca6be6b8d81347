/**
 * What the API server needs to serve HTTPS from a PKI directory: its serving certificate
 * (apiserver.crt/key, as kubeadm names them) and the TLS options that ask every client for a
 * certificate from the cluster CA without requiring one, so bearer-token and anonymous
 * clients still connect and the x509 authenticator decides what a certificate is worth.
 *
 * A server on a temporary PKI directory shares the process's CA (cluster-ca.ts); its
 * certificates are shared per process too, so the clusters of a test file pay for them once.
 */
import { randomBytes } from 'node:crypto';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import { KUBERNETES_SERVICE_IP } from '../core/service-allocation.js';
import type { ClusterCa } from './cluster-ca.js';
import {
  type ClientIdentity,
  ensureServingCertificate,
  issueClientCertificate,
  issueServingCertificate,
  type KeyPair,
  keyPairFiles,
  servingNames,
} from './issue.js';

/** The serving certificate's file stem in a PKI directory (kubeadm's). */
export const SERVING_STEM = 'apiserver';

const shared = new Map<string, Promise<KeyPair>>();

/** sharedOnce memoizes one certificate per CA and purpose for the life of the process. */
function sharedOnce(ca: ClusterCa, purpose: string, make: () => Promise<KeyPair>): Promise<KeyPair> {
  const key = `${ca.certPem}\n${purpose}`;
  let pair = shared.get(key);
  if (!pair) {
    pair = make();
    shared.set(key, pair);
    pair.catch(() => shared.delete(key));
  }
  return pair;
}

/** httpsOptions are the HTTPS server options of an API server listening on `host`. */
export async function httpsOptions(ca: ClusterCa, pkiDir: string, host: string, sharedInProcess: boolean): Promise<HttpsServerOptions> {
  const names = servingNames(host, KUBERNETES_SERVICE_IP);
  const pair = sharedInProcess
    ? await sharedOnce(ca, `serving ${JSON.stringify(names)}`, () => issueServingCertificate(ca, names))
    : await ensureServingCertificate(ca, keyPairFiles(pkiDir, SERVING_STEM), names);
  const options: HttpsServerOptions = { key: pair.keyPem, cert: pair.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false };
  return sharedInProcess ? { ...options, ticketKeys: sharedTicketKeys(ca) } : options;
}

const ticketKeys = new Map<string, Buffer>();

/**
 * sharedTicketKeys are the TLS session-ticket keys of the process's servers of one CA (those
 * that share its serving certificate): a client's session from one in-process cluster resumes
 * on the next (see controllers/runtime/client/tls-sessions.ts) instead of a full handshake per
 * watch connection. Per CA, never wider: a ticket carries the client certificate its server
 * verified, so only a server trusting the same CA may accept it.
 */
function sharedTicketKeys(ca: ClusterCa): Buffer {
  let keys = ticketKeys.get(ca.certPem);
  if (!keys) {
    keys = randomBytes(48);
    ticketKeys.set(ca.certPem, keys);
  }
  return keys;
}

/** sharedClientCertificate is a client certificate for `identity`, made once per process and CA. */
export function sharedClientCertificate(ca: ClusterCa, identity: ClientIdentity): Promise<KeyPair> {
  return sharedOnce(ca, `client ${JSON.stringify(identity)}`, () => issueClientCertificate(ca, identity));
}

/** fileStemOf names a client certificate's files after its user (`system:kube-scheduler` →
 * `system-kube-scheduler.crt`/`.key`). */
export function fileStemOf(identity: ClientIdentity): string {
  return identity.commonName.replace(/[^A-Za-z0-9.-]/g, '-');
}
