/**
 * certificates.k8s.io: CertificateSigningRequests.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { certificateSigningRequestDefinition } from './certificate-signing-request.js';

export { type CertificateSigningRequest, certificateSigningRequestDefinition, conditionSummary } from './certificate-signing-request.js';
export { KEY_USAGES, validateSignerName } from './csr-validation.js';

/** certificatesDefinitions lists the group's served kinds. */
export const certificatesDefinitions: AnyResourceDefinition[] = [certificateSigningRequestDefinition];
