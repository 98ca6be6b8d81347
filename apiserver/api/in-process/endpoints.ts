/**
 * In-process endpoints: an API server running in this process (startCluster) offers its URL
 * here, and a client of the same process connecting to that URL gets an in-memory connection
 * to the server's HTTP parser (socket-pair.ts) instead of a TCP connection and a TLS handshake
 * — a cluster's components open some 70 connections while it starts, one per watch, and the
 * handshakes were most of what HTTPS added to its start.
 *
 * The HTTP is the same on both; what TLS would have established is established here, once per
 * set of credentials, or the client does not use the channel at all and connects over the
 * network as before (so a wrong CA or a foreign certificate fails exactly as it does over TLS):
 *   - the client trusts the server: it skips verification, or its CA bundle holds the
 *     server's CA (the serving certificate names the address the URL gives);
 *   - a client certificate is verified as the server's TLS would: issued and signed by the
 *     server's CA, within its validity, for client authentication, and the client holds its
 *     private key. The server then sees that certificate as the connection's verified peer,
 *     so the x509 authenticator, RBAC and the Node authorizer see the same user.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { Duplex } from 'node:stream';

/** What a client presents: the TLS material of its kubeconfig (PEM). */
export interface InProcessClientTls {
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify?: boolean;
}

/** InProcessEndpoint is a server's offer: its CA (none for plain HTTP) and how to connect. */
export interface InProcessEndpoint {
  /** The cluster CA's certificate, for an https server. */
  caPem?: string;
  /** connect opens a connection whose verified client certificate is `peer`. */
  connect(peer: X509Certificate | undefined): Duplex;
}

const endpoints = new Map<string, InProcessEndpoint>();

/** offerInProcessEndpoint offers `endpoint` at `url` (its origin); returns the withdrawal. */
export function offerInProcessEndpoint(url: string, endpoint: InProcessEndpoint): () => void {
  const origin = new URL(url).origin;
  endpoints.set(origin, endpoint);
  return () => {
    if (endpoints.get(origin) === endpoint) endpoints.delete(origin);
  };
}

/**
 * connectInProcess opens an in-process connection to `origin` for a client presenting `tls`,
 * or returns undefined when no server of this process listens there or TLS would not accept
 * the pair (see the module comment): the caller then connects over the network.
 */
export function connectInProcess(origin: string, tls: InProcessClientTls | undefined): Duplex | undefined {
  if (endpoints.size === 0) return undefined;
  const endpoint = endpoints.get(origin);
  if (!endpoint) return undefined;
  if (!endpoint.caPem) return endpoint.connect(undefined);
  const ca = certificateOf(endpoint.caPem);
  if (!tls || !trustsServer(tls, ca)) return undefined;
  if (!tls.cert) return endpoint.connect(undefined);
  const peer = verifiedClientCertificate(tls, ca);
  return peer ? endpoint.connect(peer) : undefined;
}

function trustsServer(tls: InProcessClientTls, ca: X509Certificate): boolean {
  if (tls.insecureSkipVerify) return true;
  if (!tls.ca) return false; // The system's CAs: they never hold a kubesim cluster CA.
  return bundleFingerprints(tls.ca).has(ca.fingerprint256);
}

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** A verified client certificate and its validity window (ms). */
interface Verified {
  certificate: X509Certificate;
  notBefore: number;
  notAfter: number;
}

/** verifiedClientCertificate is the client's certificate if the server's TLS would verify it. */
function verifiedClientCertificate(tls: InProcessClientTls, ca: X509Certificate): X509Certificate | undefined {
  const verified = remembered(verifications, `${ca.fingerprint256}\n${tls.cert}\n${tls.key}`, () => verify(tls, ca));
  if (!verified) return undefined;
  const now = Date.now();
  return verified.notBefore <= now && now <= verified.notAfter ? verified.certificate : undefined;
}

function verify(tls: InProcessClientTls, ca: X509Certificate): Verified | undefined {
  try {
    const certificate = new X509Certificate(tls.cert!);
    if (!certificate.checkIssued(ca) || !certificate.verify(ca.publicKey)) return undefined;
    // keyUsage is the extended key usage; a certificate without one is good for any purpose.
    if (certificate.keyUsage && !certificate.keyUsage.includes(CLIENT_AUTH)) return undefined;
    if (!tls.key || !certificate.checkPrivateKey(createPrivateKey(tls.key))) return undefined;
    return { certificate, notBefore: Date.parse(certificate.validFrom), notAfter: Date.parse(certificate.validTo) };
  } catch {
    return undefined; // Unreadable: let TLS say so.
  }
}

/** Parsing and verifying is done once per distinct PEM: the few credentials of a process. */
const MAX_REMEMBERED = 256;
const certificates = new Map<string, X509Certificate>();
const bundles = new Map<string, Set<string>>();
const verifications = new Map<string, Verified | undefined>();

function remembered<T>(cache: Map<string, T>, key: string, make: () => T): T {
  if (cache.has(key)) return cache.get(key) as T;
  const value = make();
  if (cache.size >= MAX_REMEMBERED) cache.clear();
  cache.set(key, value);
  return value;
}

function certificateOf(pem: string): X509Certificate {
  return remembered(certificates, pem, () => new X509Certificate(pem));
}

/** bundleFingerprints are the SHA-256 fingerprints of the certificates of a PEM bundle. */
function bundleFingerprints(bundle: string): Set<string> {
  return remembered(bundles, bundle, () => {
    const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    const fingerprints = new Set<string>();
    for (const block of blocks) {
      try {
        fingerprints.add(new X509Certificate(block).fingerprint256);
      } catch {
        // A block TLS could not read either.
      }
    }
    return fingerprints;
  });
}
