/**
 * What kube-controller-manager's csrsigning controller decides before it signs (in our
 * words): which requests are its to sign (kube-apiserver-client, kube-apiserver-client-kubelet,
 * kubelet-serving), whether the request fits the signer, and the validity of the certificate.
 * Pure.
 */
import type { CertificateSigningRequest } from '../../apiserver/api/certificates/index.js';
import type { RequestedIdentity } from '../../apiserver/api/pki/cluster-ca.js';
import type { DeepReadonly } from '../runtime/types.js';

export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';
export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const OUR_SIGNERS = [KUBE_APISERVER_CLIENT_SIGNER, KUBELET_CLIENT_SIGNER, KUBELET_SERVING_SIGNER];

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
  return OUR_SIGNERS.includes(signerName ?? '');
}

/** signerProblem says why a request does not fit its signer, in kube-controller-manager's
 * words, or returns undefined when it does. */
export function signerProblem(signerName: string, usages: readonly string[], identity: RequestedIdentity): string | undefined {
  if (signerName === KUBELET_CLIENT_SIGNER) return kubeletClientProblem(usages, identity);
  if (signerName === KUBELET_SERVING_SIGNER) return kubeletServingProblem(usages, identity);
  return apiServerClientProblem(usages);
}

function apiServerClientProblem(usages: readonly string[]): string | undefined {
  for (const usage of usages) {
    if (usage !== 'digital signature' && usage !== 'key encipherment' && usage !== 'client auth') return `invalid usage for client certificate: ${usage}`;
  }
  return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
}

const NOT_SYSTEM_NODES = 'subject organization is not system:nodes';
const NOT_A_NODE_NAME = 'subject common name does not begin with system:node:';

/** A kubelet's client certificate: a node's name in group system:nodes, no alternative names. */
function kubeletClientProblem(usages: readonly string[], { commonName, organizations, alternativeNames: names }: RequestedIdentity): string | undefined {
  if (organizations.length !== 1 || organizations[0] !== 'system:nodes') return NOT_SYSTEM_NODES;
  if (names.dns > 0) return 'DNS subjectAltNames are not allowed';
  if (names.email > 0) return 'Email subjectAltNames are not allowed';
  if (names.ip > 0) return 'IP subjectAltNames are not allowed';
  if (names.uri > 0) return 'URI subjectAltNames are not allowed';
  if (!commonName.startsWith('system:node:')) return NOT_A_NODE_NAME;
  return usagesMatch(usages, 'client auth');
}

/** A kubelet's serving certificate: a node in group system:nodes, with a DNS name or an IP. */
function kubeletServingProblem(usages: readonly string[], { commonName, organizations, alternativeNames: names }: RequestedIdentity): string | undefined {
  if (organizations.length !== 1 || organizations[0] !== 'system:nodes') return NOT_SYSTEM_NODES;
  if (names.dns === 0 && names.ip === 0) return 'DNS or IP subjectAltName is required';
  if (names.email > 0) return 'Email subjectAltNames are not allowed';
  if (names.uri > 0) return 'URI subjectAltNames are not allowed';
  const problem = usagesMatch(usages, 'server auth');
  if (problem) return problem;
  return commonName.startsWith('system:node:') ? undefined : NOT_A_NODE_NAME;
}

/** usagesMatch: exactly {digital signature, `purpose`}, key encipherment allowed (RSA keys). */
function usagesMatch(usages: readonly string[], purpose: string): string | undefined {
  const required = ['digital signature', 'key encipherment', purpose].sort();
  const given = new Set(usages);
  const withoutRsa = required.filter((u) => u !== 'key encipherment');
  const equals = (set: string[]) => given.size === set.length && set.every((u) => given.has(u));
  return equals(required) || equals(withoutRsa) ? undefined : `usages did not match [${required.join(' ')}]`;
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
