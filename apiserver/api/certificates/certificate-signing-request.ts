/**
 * certificates.k8s.io/v1 CertificateSigningRequest: a request for an X.509 certificate from a
 * named signer. The spec is fixed at creation (the requestor's identity is filled in by the
 * server); /approval adds Approved or Denied, /status the issued certificate or a Failed
 * condition; neither is writable through the main resource. The signer for the
 * kubernetes.io/kube-apiserver-client* and kubelet-serving names is controllers/csr-signing.
 */
import { z } from 'zod';
import { ADMIN_USER } from '../machinery/admin-user.js';
import { rfc3339 } from '../machinery/time.js';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, humanDuration, nameColumn, orNone } from '../printing.js';
import type { KindStrategy, ResourceDefinition } from '../resource-definition.js';
import { CertificateSigningRequestMessage } from './certificate-signing-request-protobuf.js';
import { type CsrCondition, validateCsr } from './csr-validation.js';

const CERTIFICATES_V1 = 'io.k8s.api.certificates.v1';

const ConditionSchema = z
  .object({
    type: z.string().describe('Approved, Denied or Failed (or a signer-specific type).'),
    status: z.string().describe('True, False or Unknown; Approved, Denied and Failed are always True.'),
    reason: z.string().optional().describe('A brief reason for the request state.'),
    message: z.string().optional().describe('A human readable message with details about the request state.'),
    lastUpdateTime: TimeSchema.optional().describe('The time of the last update to this condition.'),
    lastTransitionTime: TimeSchema.optional().describe('The time the condition last transitioned from one status to another.'),
  })
  .meta({ id: `${CERTIFICATES_V1}.CertificateSigningRequestCondition`, description: 'A condition of a CertificateSigningRequest.' });

const SpecSchema = z
  .object({
    request: z.string().describe('An x509 certificate signing request in a "CERTIFICATE REQUEST" PEM block, base64-encoded in JSON.').meta({ format: 'byte' }),
    signerName: z.string().describe('The signer asked to issue the certificate, e.g. kubernetes.io/kube-apiserver-client.'),
    expirationSeconds: z.int32().optional().describe('The requested validity of the certificate, at least 600 seconds.'),
    usages: z
      .array(z.string())
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('Key usages requested: "digital signature", "key encipherment", "client auth", "server auth", ...'),
    username: z.string().optional().describe('The user that created the request; set by the server.'),
    uid: z.string().optional().describe('The uid of the user that created the request; set by the server.'),
    groups: z.array(z.string()).optional().meta({ 'x-kubernetes-list-type': 'atomic' }).describe('The groups of that user; set by the server.'),
    extra: z.record(z.string(), z.array(z.string())).optional().describe('Extra attributes of that user; set by the server.'),
  })
  .meta({ id: `${CERTIFICATES_V1}.CertificateSigningRequestSpec`, description: 'CertificateSigningRequestSpec contains the certificate request.' });

const StatusSchema = z
  .object({
    conditions: z.array(ConditionSchema).optional().meta(mergeByKey('type')).describe('Approved, Denied and Failed conditions.'),
    certificate: z.string().optional().meta({ format: 'byte' }).describe('The issued certificate (PEM, base64-encoded in JSON); set once through /status.'),
  })
  .meta({
    id: `${CERTIFICATES_V1}.CertificateSigningRequestStatus`,
    description: 'Whether the request is approved, denied or failed, and the issued certificate.',
  });

export const CertificateSigningRequestSchema = z
  .object({
    ...typeMetaFields('certificates.k8s.io/v1', 'CertificateSigningRequest'),
    spec: SpecSchema.describe('The certificate request; immutable after creation.'),
    status: StatusSchema.optional().describe('Approval, failure and the issued certificate.'),
  })
  .meta({
    id: `${CERTIFICATES_V1}.CertificateSigningRequest`,
    description:
      'CertificateSigningRequest objects provide a mechanism to obtain x509 certificates by submitting a certificate signing request, and having it asynchronously approved and issued.',
  });

export type CertificateSigningRequest = z.infer<typeof CertificateSigningRequestSchema>;

/** conditionSummary is the CONDITION column: Denied, Approved or Pending, then Failed and Issued. */
export function conditionSummary(csr: CertificateSigningRequest): string {
  const types = (csr.status?.conditions ?? []).map((c) => c.type);
  const parts = [types.includes('Denied') ? 'Denied' : types.includes('Approved') ? 'Approved' : 'Pending'];
  if (types.includes('Failed')) parts.push('Failed');
  if (csr.status?.certificate) parts.push('Issued');
  return parts.join(',');
}

/** stampConditions fills in the condition times a writer left out, as kube-apiserver does:
 * the update time is now; the transition time is kept from an old condition of the same type
 * and status, else now. */
function stampConditions(conditions: CsrCondition[], old: CsrCondition[], nowMs: number): void {
  const now = rfc3339(nowMs);
  for (const condition of conditions) {
    condition.lastUpdateTime ||= now;
    if (condition.lastTransitionTime) continue;
    const same = old.find((o) => o.type === condition.type && o.status === condition.status && o.lastTransitionTime);
    condition.lastTransitionTime = same?.lastTransitionTime ?? now;
  }
}

/** keepApprovalConditions puts back the Approved and Denied conditions of `old`: /status may not touch them. */
function keepApprovalConditions(conditions: CsrCondition[], old: CsrCondition[]): CsrCondition[] {
  const isApproval = (c: CsrCondition) => c.type === 'Approved' || c.type === 'Denied';
  return [...conditions.filter((c) => !isApproval(c)), ...old.filter(isApproval)];
}

const csrStrategy: KindStrategy = {
  beforeCreate(object) {
    const csr = object as unknown as CertificateSigningRequest;
    // The requestor is whoever sent the request, never what the body claims.
    delete csr.spec.uid;
    delete csr.spec.extra;
    csr.spec.username = ADMIN_USER.username;
    csr.spec.groups = [...ADMIN_USER.groups];
  },
  beforeUpdate(object, old, ctx, subresource) {
    const csr = object as unknown as CertificateSigningRequest;
    const before = old as unknown as CertificateSigningRequest;
    csr.spec = structuredClone(before.spec);
    if (subresource !== 'status' && subresource !== 'approval') return;
    const oldConditions = before.status?.conditions ?? [];
    let conditions = csr.status?.conditions ?? [];
    if (subresource === 'status') conditions = keepApprovalConditions(conditions, oldConditions);
    stampConditions(conditions, oldConditions, ctx.now());
    const { conditions: _given, ...rest } = csr.status ?? {};
    csr.status = conditions.length > 0 ? { ...rest, conditions } : rest;
  },
};

/** csrDefinition serves certificates.k8s.io/v1 certificatesigningrequests (csr, cluster-scoped). */
export const certificateSigningRequestDefinition: ResourceDefinition<CertificateSigningRequest> = {
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  categories: [],
  namespaced: false,
  // Any name will do: kube-apiserver checks only that it is a valid path segment.
  nameRule: 'path-segment',
  schema: CertificateSigningRequestSchema,
  validate: (csr, old, subresource) => validateCsr(csr, old, subresource),
  strategy: csrStrategy,
  tracksGeneration: false,
  subresources: { status: true, extra: ['approval'] },
  printColumns: [
    nameColumn,
    ageColumn,
    column('SignerName', (csr: CertificateSigningRequest) => orNone(csr.spec?.signerName), { description: 'The signer asked to issue the certificate.' }),
    column('Requestor', (csr: CertificateSigningRequest) => csr.spec?.username ?? '', { description: 'The user that created the request.' }),
    column(
      'RequestedDuration',
      (csr: CertificateSigningRequest) => (csr.spec?.expirationSeconds === undefined ? '<none>' : humanDuration(csr.spec.expirationSeconds * 1000)),
      { description: 'The requested validity of the certificate.' },
    ),
    column('Condition', (csr: CertificateSigningRequest) => conditionSummary(csr), { description: 'Pending, Approved or Denied; Failed; Issued.' }),
  ],
  fieldSelectors: { 'spec.signerName': (csr) => csr.spec?.signerName },
  protobuf: CertificateSigningRequestMessage,
  storage: { resource: 'certificatesigningrequests.certificates.k8s.io' },
};
