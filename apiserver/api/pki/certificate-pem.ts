/** Checks a PEM certificate chain as kube-apiserver checks a CSR's status.certificate. */
import { X509Certificate } from 'node:crypto';
import { decodePemBlocks } from './pem.js';

export const CERTIFICATE_PEM_TYPE = 'CERTIFICATE';

/** certificateChainProblem says why `pem` is not one or more CERTIFICATE blocks, or returns
 * undefined when it is (or is empty: no certificate yet). */
export function certificateChainProblem(pem: string): string | undefined {
  if (pem === '') return undefined;
  const blocks = decodePemBlocks(pem);
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const block of blocks) {
    if (block.type !== CERTIFICATE_PEM_TYPE) return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length > 0) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return undefined;
}
