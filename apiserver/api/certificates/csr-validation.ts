/**
 * kube-apiserver's validation of certificates.k8s.io/v1 CertificateSigningRequests
 * (pkg/apis/certificates/validation, in our words): a signed PEM request, a well-formed
 * signerName, known usages, expirationSeconds ≥ 600, condition rules, and which endpoint may
 * change what — Approved/Denied only through /approval, status.certificate only through
 * /status and only once. Tolerances for data already stored keep old objects updatable.
 */
import { certificateChainProblem } from '../pki/certificate-pem.js';
import { csrProblem } from '../pki/csr.js';
import type { FieldError } from '../resource-definition.js';
import { duplicate, forbidden, invalid, isDns1123Label, isDns1123Subdomain, notSupported, required, tooLong } from '../validation.js';

/** The usages certificates.k8s.io accepts, sorted as kube-apiserver lists them. */
export const KEY_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
] as const;

const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';
/** Condition types that may only be True, and that no update may remove. */
const ONE_WAY_CONDITIONS = ['Approved', 'Denied', 'Failed'];
const APPROVAL_CONDITIONS = ['Approved', 'Denied'] as const;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const MIN_EXPIRATION_SECONDS = 600;
const DNS1123_SUBDOMAIN_MAX = 253;
const DNS1123_LABEL_MAX = 63;

export interface CsrCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

/** CsrShape is the part of a CertificateSigningRequest validation reads. */
export interface CsrShape {
  spec: { request: string; signerName: string; expirationSeconds?: number; usages?: string[] };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

/** Tolerances: what old data may keep, and what the endpoint of the write may set. */
interface Options {
  settingApproval: boolean;
  settingCertificate: boolean;
  bothApprovedAndDenied: boolean;
  legacySigner: boolean;
  duplicateConditionTypes: boolean;
  emptyConditionType: boolean;
  arbitraryCertificate: boolean;
  unknownUsages: boolean;
  duplicateUsages: boolean;
}

const decoded = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('latin1');

/** validateCsr validates a create (no `old`) or an update through `subresource`. */
export function validateCsr(csr: CsrShape, old?: CsrShape, subresource?: string): FieldError[] {
  const options = optionsFor(csr, old, subresource);
  const errors = validateContent(csr, options);
  if (old) errors.push(...validateTransition(csr, old, options));
  return errors;
}

function optionsFor(csr: CsrShape, old: CsrShape | undefined, subresource: string | undefined): Options {
  const oldTypes = (old?.status?.conditions ?? []).map((c) => c.type);
  const sameCertificate = old !== undefined && (csr.status?.certificate ?? '') === (old.status?.certificate ?? '');
  return {
    settingApproval: subresource === 'approval',
    settingCertificate: subresource === 'status',
    bothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    legacySigner: old?.spec.signerName === LEGACY_UNKNOWN_SIGNER,
    duplicateConditionTypes: new Set(oldTypes).size !== oldTypes.length,
    emptyConditionType: oldTypes.includes(''),
    arbitraryCertificate: sameCertificate || (old !== undefined && certificateChainProblem(decoded(old.status?.certificate)) !== undefined),
    unknownUsages: (old?.spec.usages ?? []).some((u) => !(KEY_USAGES as readonly string[]).includes(u)),
    duplicateUsages: old !== undefined && new Set(old.spec.usages ?? []).size !== (old.spec.usages ?? []).length,
  };
}

function validateContent(csr: CsrShape, options: Options): FieldError[] {
  const { spec } = csr;
  const errors: FieldError[] = [];
  const problem = csrProblem(decoded(spec.request));
  if (problem) errors.push(invalid('spec.request', spec.request, problem));
  errors.push(...validateUsages(spec.usages ?? [], options));
  if (!options.legacySigner && spec.signerName === LEGACY_UNKNOWN_SIGNER) {
    errors.push(invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errors.push(...validateSignerName('spec.signerName', spec.signerName ?? ''));
  }
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errors.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errors.push(...validateConditions(csr.status?.conditions ?? [], options));
  if (!options.arbitraryCertificate) {
    const certificateProblem = certificateChainProblem(decoded(csr.status?.certificate));
    if (certificateProblem) errors.push(invalid('status.certificate', '<certificate data>', certificateProblem));
  }
  return errors;
}

function validateUsages(usages: string[], options: Options): FieldError[] {
  const errors: FieldError[] = [];
  if (usages.length === 0) errors.push(required('spec.usages'));
  if (!options.unknownUsages) {
    usages.forEach((usage, i) => {
      if (!(KEY_USAGES as readonly string[]).includes(usage)) errors.push(notSupported(`spec.usages[${i}]`, usage, KEY_USAGES));
    });
  }
  if (!options.duplicateUsages) {
    usages.forEach((usage, i) => {
      if (usages.indexOf(usage) < i) errors.push(duplicate(`spec.usages[${i}]`, usage));
    });
  }
  return errors;
}

/** validateSignerName: `<domain>/<path>`, the domain of DNS labels with at least one dot,
 * the path of DNS subdomains separated by dots, within kube-apiserver's lengths. */
export function validateSignerName(field: string, signerName: string): FieldError[] {
  if (signerName === '') return [required(field)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, path] = segments as [string, string];
  const errors: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX) errors.push(tooLong(field, DNS1123_SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  errors.push(...firstLabelErrors(field, domain, domainLabels, isDns1123Label));
  if (domainLabels.length < 2) errors.push(invalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  errors.push(...firstLabelErrors(field, path, path.split('.'), isDns1123Subdomain));
  const maxLength = DNS1123_SUBDOMAIN_MAX + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1) + 1;
  if (signerName.length > maxLength) errors.push(tooLong(field, maxLength));
  return errors;
}

/** firstLabelErrors reports the problems of the first bad label only (later ones would repeat them). */
function firstLabelErrors(field: string, segment: string, labels: string[], check: (label: string) => string[]): FieldError[] {
  for (const label of labels) {
    const problems = check(label);
    if (problems.length > 0) return problems.map((problem) => invalid(field, segment, `validating label ${JSON.stringify(label)}: ${problem}`));
  }
  return [];
}

function validateConditions(conditions: CsrCondition[], options: Options): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((condition, i) => {
    const at = `status.conditions[${i}]`;
    if (!options.emptyConditionType && !condition.type) errors.push(required(`${at}.type`));
    const allowed = ONE_WAY_CONDITIONS.includes(condition.type) ? ['True'] : CONDITION_STATUSES;
    if (!condition.status) errors.push(required(`${at}.status`));
    else if (!allowed.includes(condition.status)) errors.push(notSupported(`${at}.status`, condition.status, allowed));
    if (!options.bothApprovedAndDenied) {
      const exclusive = (condition.type === 'Approved' && denied) || (condition.type === 'Denied' && approved);
      if (exclusive) errors.push(invalid(`${at}.type`, condition.type, 'Approved and Denied conditions are mutually exclusive'));
      approved ||= condition.type === 'Approved';
      denied ||= condition.type === 'Denied';
    }
    if (!options.duplicateConditionTypes && seen.has(condition.type)) errors.push(duplicate(`${at}.type`, condition.type));
    seen.add(condition.type);
  });
  return errors;
}

function validateTransition(csr: CsrShape, old: CsrShape, options: Options): FieldError[] {
  const errors: FieldError[] = [];
  const ofType = (object: CsrShape, type: string) => (object.status?.conditions ?? []).filter((c) => c.type === type);
  for (const type of ONE_WAY_CONDITIONS) {
    if (ofType(csr, type).length < ofType(old, type).length) {
      errors.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(type)}`));
    }
  }
  if (!options.settingApproval) {
    for (const type of APPROVAL_CONDITIONS) {
      const [now, before] = [ofType(csr, type), ofType(old, type)];
      if (now.length > before.length) errors.push(forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(type)}`));
      else if (now.length === before.length && JSON.stringify(now) !== JSON.stringify(before)) {
        errors.push(forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(type)}`));
      }
    }
  }
  const [certificate, oldCertificate] = [csr.status?.certificate ?? '', old.status?.certificate ?? ''];
  if (certificate !== oldCertificate) {
    if (!options.settingCertificate) errors.push(forbidden('status.certificate', 'updates may not set certificate content'));
    else if (oldCertificate !== '') errors.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errors;
}
