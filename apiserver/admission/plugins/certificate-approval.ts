/**
 * CertificateApproval, as kube-apiserver's plugin: approving or denying a
 * CertificateSigningRequest (its /approval subresource) needs the `approve` verb on its signer
 * (certificates.k8s.io `signers`, by name or domain wildcard), checked against the new object
 * in case the update changes the signer.
 */
import type { Authorizer } from '../../api/authorization/authorizer-types.js';
import type { CertificateSigningRequest } from '../../api/certificates/certificate-signing-request.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

export function createCertificateApproval({ authorizer }: { authorizer: Authorizer }): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    handles: (operation, def, subresource) => operation === 'UPDATE' && subresource === 'approval' && def.storage.resource === CSR_RESOURCE,
    validate(_ctx, attributes) {
      const signerName = (attributes.object as unknown as CertificateSigningRequest).spec?.signerName ?? '';
      if (!isAuthorizedForSignerName(authorizer, attributes.user, 'approve', signerName)) {
        throw admissionForbidden(attributes, `user not permitted to approve requests with signerName "${signerName}"`);
      }
    },
  };
}

export const CSR_RESOURCE = 'certificatesigningrequests.certificates.k8s.io';
