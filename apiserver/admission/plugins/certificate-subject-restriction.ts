/**
 * CertificateSubjectRestriction, as kube-apiserver's plugin: a CertificateSigningRequest for
 * the kubernetes.io/kube-apiserver-client signer may not ask for the system:masters group (an
 * organization of its subject), which would make its holder a cluster administrator whatever
 * RBAC says. Reading the request loads the X.509 library, hence asynchronous — for that
 * signer's requests only.
 */
import { internalError } from '../../api/api-error.js';
import type { CertificateSigningRequest } from '../../api/certificates/certificate-signing-request.js';
import { requestedIdentity } from '../../api/pki/cluster-ca.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { CSR_RESOURCE } from './certificate-approval.js';

const API_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

export const certificateSubjectRestriction: AdmissionPlugin = {
  name: 'CertificateSubjectRestriction',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === CSR_RESOURCE,
  validate(_ctx, attributes) {
    const csr = attributes.object as unknown as CertificateSigningRequest;
    if (csr.spec?.signerName !== API_CLIENT_SIGNER) return;
    const pem = Buffer.from(csr.spec.request, 'base64').toString('utf8');
    return requestedIdentity(pem).then(
      (identity) => {
        if (identity.organizations.includes('system:masters')) {
          throw admissionForbidden(attributes, `use of ${API_CLIENT_SIGNER} signer with system:masters group is not allowed`);
        }
      },
      (err: unknown) => {
        throw internalError(`failed to parse CSR: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  },
};
