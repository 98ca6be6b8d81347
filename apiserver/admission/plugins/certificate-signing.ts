/**
 * CertificateSigning, as kube-apiserver's plugin: a /status update of a
 * CertificateSigningRequest that changes its certificate or its conditions (issuing it, or
 * marking it Failed) needs the `sign` verb on the request's signer (by name or domain wildcard).
 */
import type { Authorizer } from '../../api/authorization/authorizer-types.js';
import type { CertificateSigningRequest } from '../../api/certificates/certificate-signing-request.js';
import { deepEqual } from '../../api/deep-equal.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { CSR_RESOURCE } from './certificate-approval.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export function createCertificateSigning({ authorizer }: { authorizer: Authorizer }): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    handles: (operation, def, subresource) => operation === 'UPDATE' && subresource === 'status' && def.storage.resource === CSR_RESOURCE,
    validate(_ctx, attributes) {
      const csr = attributes.object as unknown as CertificateSigningRequest;
      const old = attributes.oldObject as unknown as CertificateSigningRequest | undefined;
      if (!old) return;
      const unchanged =
        (old.status?.certificate ?? '') === (csr.status?.certificate ?? '') && deepEqual(old.status?.conditions ?? [], csr.status?.conditions ?? []);
      if (unchanged) return;
      const signerName = old.spec?.signerName ?? '';
      if (!isAuthorizedForSignerName(authorizer, attributes.user, 'sign', signerName)) {
        throw admissionForbidden(attributes, `user not permitted to sign requests with signerName "${signerName}"`);
      }
    },
  };
}
