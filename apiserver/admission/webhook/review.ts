/**
 * AdmissionReview as kube-apiserver sends and checks it (webhook/request): the request built
 * from the admission attributes, and the verification of the webhook's answer.
 */
import { randomUUID } from 'node:crypto';
import type { Status } from '../../api/api-error.js';
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import type { AdmissionAttributes } from '../plugin.js';
import { WebhookCallError } from './errors.js';

const OPTIONS_KIND = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions', CONNECT: '' } as const;

/** reviewVersionFor picks the first of the webhook's admissionReviewVersions the server
 * speaks (v1, v1beta1), as kube-apiserver does. */
export function reviewVersionFor(versions: readonly string[] | undefined): 'v1' | 'v1beta1' | undefined {
  return (versions ?? []).find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1');
}

/** Versioned is the request as a webhook sees it: the served version its rules matched, and
 * the objects converted to it (kube's VersionedAttributes). */
export interface Versioned {
  def: ResourceDefinition;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

/** admissionRequest is AdmissionReview.request for `a` (a new uid per call): kind and
 * resource name the matched version, requestKind and requestResource the addressed one. */
export function admissionRequest(a: AdmissionAttributes, versioned: Versioned): Record<string, unknown> {
  const request: Record<string, unknown> = {
    uid: randomUUID(),
    kind: kindOf(versioned.def),
    resource: resourceOf(versioned.def),
    requestKind: kindOf(a.def),
    requestResource: resourceOf(a.def),
    name: a.name,
    operation: a.operation,
    userInfo: userInfoOf(a),
    object: versioned.object ?? null,
    oldObject: versioned.oldObject ?? null,
    dryRun: a.dryRun,
    options: optionsOf(a),
  };
  if (a.subresource) {
    request['subResource'] = a.subresource;
    request['requestSubResource'] = a.subresource;
  }
  if (a.namespace) request['namespace'] = a.namespace;
  return request;
}

const kindOf = ({ group, version, kind }: ResourceDefinition) => ({ group, version, kind });
const resourceOf = ({ group, version, plural }: ResourceDefinition) => ({ group, version, resource: plural });

function userInfoOf(a: AdmissionAttributes): Record<string, unknown> {
  const info: Record<string, unknown> = { username: a.user.username };
  if (a.user.uid) info['uid'] = a.user.uid;
  if (a.user.groups.length) info['groups'] = a.user.groups;
  if (a.user.extra && Object.keys(a.user.extra).length) info['extra'] = a.user.extra;
  return info;
}

function optionsOf(a: AdmissionAttributes): Record<string, unknown> | null {
  const kind = OPTIONS_KIND[a.operation];
  if (!kind) return null;
  return { ...a.options, kind, apiVersion: 'meta.k8s.io/v1' };
}

export function admissionReview(version: 'v1' | 'v1beta1', request: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

/** AdmissionResponse is what a verified answer carries. */
export interface AdmissionResponse {
  allowed: boolean;
  status?: Partial<Status>;
  /** The decoded JSON patch operations, when the webhook sent one. */
  patch?: unknown;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** verifyResponse checks an answer as kube's VerifyAdmissionResponse; throws WebhookCallError
 * `received invalid webhook response: ...`. */
export function verifyResponse(body: unknown, version: 'v1' | 'v1beta1', uid: string, mutating: boolean): AdmissionResponse {
  try {
    return verified(body, version, uid, mutating);
  } catch (err) {
    throw new WebhookCallError(`received invalid webhook response: ${(err as Error).message}`);
  }
}

function verified(body: unknown, version: 'v1' | 'v1beta1', uid: string, mutating: boolean): AdmissionResponse {
  const review = asObject(body) ?? {};
  const expected = `admission.k8s.io/${version}, Kind=AdmissionReview`;
  const got = `${String(review['apiVersion'] ?? '')}, Kind=${String(review['kind'] ?? '')}`;
  if (version === 'v1' && got !== expected) throw new Error(`expected webhook response of ${expected}, got ${got}`);
  const response = asObject(review['response']);
  if (!response) throw new Error('webhook response was absent');
  if (response['uid'] !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(String(response['uid'] ?? ''))}`);
  return {
    allowed: response['allowed'] === true,
    status: asObject(response['status']) as Partial<Status> | undefined,
    patch: patchOf(response, version, mutating),
    warnings: stringsOf(response['warnings']),
    auditAnnotations: annotationsOf(response['auditAnnotations']),
  };
}

function patchOf(response: Record<string, unknown>, version: string, mutating: boolean): unknown {
  const patch = response['patch'];
  const patchType = response['patchType'];
  if (patch === undefined || patch === null || patch === '') {
    if (version === 'v1' && patchType) throw new Error('webhook returned response.patchType but not response.patch');
    return undefined;
  }
  if (!mutating) throw new Error('validating webhook may not return response.patch');
  if (version === 'v1' && !patchType) throw new Error('webhook returned response.patch but not response.patchType');
  if (patchType !== undefined && patchType !== 'JSONPatch')
    throw new Error(`webhook returned invalid response.patchType of ${JSON.stringify(String(patchType))}`);
  if (typeof patch !== 'string') throw new Error('json: cannot unmarshal patch into []byte');
  return Buffer.from(patch, 'base64').toString('utf8');
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function annotationsOf(value: unknown): Record<string, string> {
  const object = asObject(value) ?? {};
  return Object.fromEntries(Object.entries(object).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
