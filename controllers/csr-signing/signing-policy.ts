/**
 * What kube-controller-manager's csrsigning controller decides before it signs (in our
 * words): which requests are its to sign, whether the usages fit the signer, and the
 * validity of the certificate. Pure.
 */
import type { CertificateSigningRequest } from '../../apiserver/api/certificates/index.js';
import type { DeepReadonly } from '../runtime/types.js';

export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

/** The longest certificate the signer issues: kube-controller-manager's default
 * --cluster-signing-duration (one year). */
export const MAX_CERTIFICATE_TTL_MS = 365 * 24 * 3600_000;
const MIN_CERTIFICATE_TTL_MS = 10 * 60_000;
/** notBefore lies this far in the past, for clocks a little behind. */
const BACKDATE_MS = 5 * 60_000;
/** Certificates shorter than this keep their full requested life after now. */
const SHORT_TTL_MS = 8 * 3600_000;

type Csr = DeepReadonly<CertificateSigningRequest>;

const hasCondition = (csr: Csr, type: string) => (csr.status?.conditions ?? []).some((c) => c.type === type);

/** awaitsSigning: approved (and not denied), neither failed nor issued yet. */
export function awaitsSigning(csr: Csr): boolean {
  return hasCondition(csr, 'Approved') && !hasCondition(csr, 'Denied') && !hasCondition(csr, 'Failed') && !csr.status?.certificate;
}

/** isOurSigner: the signer names this loop issues for. */
export function isOurSigner(signerName: string | undefined): boolean {
  return signerName === KUBE_APISERVER_CLIENT_SIGNER;
}

/** usageProblem says why the usages do not fit a client certificate for the API server,
 * in kube-controller-manager's words, or returns undefined when they do. */
export function usageProblem(usages: readonly string[]): string | undefined {
  for (const usage of usages) {
    if (usage !== 'digital signature' && usage !== 'key encipherment' && usage !== 'client auth') return `invalid usage for client certificate: ${usage}`;
  }
  return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
}

/** signingTtlMs: the requested duration within [10 minutes, the maximum]; the maximum when none was asked. */
export function signingTtlMs(expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return MAX_CERTIFICATE_TTL_MS;
  return Math.min(MAX_CERTIFICATE_TTL_MS, Math.max(MIN_CERTIFICATE_TTL_MS, expirationSeconds * 1000));
}

/** validity: notBefore backdated by 5 minutes; notAfter `ttl` after now for short
 * certificates, `ttl` after notBefore for longer ones, never past the CA's own end. */
export function validity(nowMs: number, ttlMs: number, caNotAfterMs: number): { notBefore: Date; notAfter: Date } {
  const notBefore = nowMs - BACKDATE_MS;
  const notAfter = ttlMs < SHORT_TTL_MS ? nowMs + ttlMs : notBefore + ttlMs;
  return { notBefore: new Date(notBefore), notAfter: new Date(Math.min(notAfter, caNotAfterMs)) };
}
