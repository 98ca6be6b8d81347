/**
 * Reads a PKCS#10 certificate signing request synchronously, as kube-apiserver's validation
 * does (certificates.ParseCSR, then CheckSignature): a small DER walk finds the signed part,
 * the public key and the signature, and node:crypto checks the signature. Synchronous on
 * purpose — validation runs inside a request — and free of the X.509 library, which only the
 * signer needs.
 */
import { createPublicKey, verify } from 'node:crypto';
import { decodePemBlocks } from './pem.js';

export const CSR_PEM_TYPE = 'CERTIFICATE REQUEST';

interface Tlv {
  tag: number;
  /** The whole element, header included. */
  raw: Buffer;
  content: Buffer;
}

/** readTlv reads the DER element at `offset`; throws on truncation. */
function readTlv(der: Buffer, offset: number): Tlv & { end: number } {
  const tag = der[offset];
  let lengthByte = der[offset + 1];
  if (tag === undefined || lengthByte === undefined) throw new Error('truncated');
  let length = lengthByte;
  let header = 2;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    if (count === 0 || count > 4) throw new Error('bad length');
    length = 0;
    for (let i = 0; i < count; i++) {
      lengthByte = der[offset + 2 + i];
      if (lengthByte === undefined) throw new Error('truncated');
      length = length * 256 + lengthByte;
    }
    header += count;
  }
  const end = offset + header + length;
  if (end > der.length) throw new Error('truncated');
  return { tag, raw: der.subarray(offset, end), content: der.subarray(offset + header, end), end };
}

/** children splits a constructed element's content into its elements. */
function children(content: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = 0; offset < content.length; ) {
    const tlv = readTlv(content, offset);
    out.push(tlv);
    offset = tlv.end;
  }
  return out;
}

function decodeOid(bytes: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
    else parts.push(value);
    value = 0;
  }
  return parts.join('.');
}

const SEQUENCE = 0x30;
const OID = 0x06;
const BIT_STRING = 0x03;

/** ParsedCsr is what signature checking needs of a request. */
export interface ParsedCsr {
  signedPart: Buffer;
  publicKeyInfo: Buffer;
  signatureAlgorithm: string;
  signature: Buffer;
}

const MALFORMED = 'x509: malformed certificate request';

/** parseCsrDer splits a DER request; throws an Error worded as Go's x509 package. */
export function parseCsrDer(der: Buffer): ParsedCsr {
  try {
    const outer = readTlv(der, 0);
    const [info, algorithm, signature] = children(outer.content);
    if (outer.tag !== SEQUENCE || info?.tag !== SEQUENCE || algorithm?.tag !== SEQUENCE || signature?.tag !== BIT_STRING) throw new Error(MALFORMED);
    const [, subject, publicKeyInfo] = children(info.content);
    const [oid] = children(algorithm.content);
    if (subject?.tag !== SEQUENCE || publicKeyInfo?.tag !== SEQUENCE || oid?.tag !== OID) throw new Error(MALFORMED);
    return { signedPart: info.raw, publicKeyInfo: publicKeyInfo.raw, signatureAlgorithm: decodeOid(oid.content), signature: signature.content.subarray(1) };
  } catch {
    throw new Error(MALFORMED);
  }
}

/** The signature algorithms Go's x509 checks, by OID: the digest and the failure wording. */
const SIGNATURE_ALGORITHMS: Record<string, { digest: string | null; failure: string }> = {
  '1.2.840.10045.4.3.2': { digest: 'sha256', failure: 'x509: ECDSA verification failure' },
  '1.2.840.10045.4.3.3': { digest: 'sha384', failure: 'x509: ECDSA verification failure' },
  '1.2.840.10045.4.3.4': { digest: 'sha512', failure: 'x509: ECDSA verification failure' },
  '1.2.840.113549.1.1.11': { digest: 'sha256', failure: 'crypto/rsa: verification error' },
  '1.2.840.113549.1.1.12': { digest: 'sha384', failure: 'crypto/rsa: verification error' },
  '1.2.840.113549.1.1.13': { digest: 'sha512', failure: 'crypto/rsa: verification error' },
  '1.3.101.112': { digest: null, failure: 'x509: Ed25519 verification failure' },
};

/** checkCsrSignature throws unless the request is signed by the key it carries. */
export function checkCsrSignature(csr: ParsedCsr): void {
  const algorithm = SIGNATURE_ALGORITHMS[csr.signatureAlgorithm];
  if (!algorithm) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  let ok = false;
  try {
    const key = createPublicKey({ key: csr.publicKeyInfo, format: 'der', type: 'spki' });
    ok = verify(algorithm.digest, csr.signedPart, key, csr.signature);
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(algorithm.failure);
}

/** csrProblem says why `pem` is not a signed CERTIFICATE REQUEST block, in kube-apiserver's
 * words, or returns undefined when it is one. */
export function csrProblem(pem: string): string | undefined {
  const [block] = decodePemBlocks(pem);
  if (!block || block.type !== CSR_PEM_TYPE) return `PEM block type must be ${CSR_PEM_TYPE}`;
  try {
    checkCsrSignature(parseCsrDer(block.bytes));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
