/**
 * CRD conversion webhooks (spec.conversion.strategy Webhook), as apiextensions-apiserver's
 * webhookConverter: one ConversionReview (apiextensions.k8s.io/v1) with the objects to convert
 * and the desired apiVersion, sent with the same webhook client as admission webhooks; the
 * answer is checked (uid, result, count, apiVersion and kind, metadata beyond labels and
 * annotations unchanged) and failures are worded as kube's.
 */
import { randomUUID } from 'node:crypto';
import { postReview, type WebhookClientConfig } from '../admission/webhook/client.js';
import { WebhookCallError } from '../admission/webhook/errors.js';
import { internalError } from '../api/api-error.js';
import type { CustomResourceDefinition } from '../api/apiextensions/index.js';
import { deepEqual } from '../api/deep-equal.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { RegistryContext } from '../registry/context.js';

/** kube-apiserver gives conversion webhooks 30 seconds. */
const CONVERSION_TIMEOUT_SECONDS = 30;

/** usesConversionWebhook: does the CRD convert between versions with a webhook? */
export function usesConversionWebhook(crd: CustomResourceDefinition | undefined): crd is CustomResourceDefinition {
  return crd?.spec.conversion?.strategy === 'Webhook' && !!crd.spec.conversion.webhook?.clientConfig;
}

/** convertObjects converts `objects` (all of one apiVersion) to `desiredApiVersion` with the
 * CRD's webhook. Objects already in that version are not sent. Throws kube-apiserver's 500
 * `Internal error occurred: conversion webhook for <gvk> failed: ...`. */
export async function convertObjects(
  ctx: RegistryContext,
  crd: CustomResourceDefinition,
  objects: KubeObject[],
  desiredApiVersion: string,
): Promise<KubeObject[]> {
  const toSend = objects.filter((o) => o.apiVersion !== desiredApiVersion);
  if (toSend.length === 0) return objects;
  const gvk = `${toSend[0]?.apiVersion}, Kind=${toSend[0]?.kind}`;
  const webhook = crd.spec.conversion?.webhook;
  const uid = randomUUID();
  const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion: desiredApiVersion, objects: toSend } };
  if (!(webhook?.conversionReviewVersions ?? []).includes('v1')) throw failed(gvk, 'webhook does not accept v1 ConversionReview');
  let body: unknown;
  try {
    body = await postReview(ctx, (webhook?.clientConfig ?? {}) as WebhookClientConfig, review, CONVERSION_TIMEOUT_SECONDS);
  } catch (err) {
    if (err instanceof WebhookCallError) throw failed(gvk, err.message.replace(/^failed to call webhook: /, ''));
    throw err;
  }
  const converted = checkedAnswer(body, uid, gvk, toSend, desiredApiVersion);
  let next = 0;
  return objects.map((o) => (o.apiVersion === desiredApiVersion ? o : (converted[next++] as KubeObject)));
}

function failed(gvk: string, reason: string) {
  return internalError(`conversion webhook for ${gvk} failed: ${reason}`);
}

interface ConversionResponse {
  uid?: unknown;
  result?: { status?: unknown; message?: unknown };
  convertedObjects?: unknown;
}

function checkedAnswer(body: unknown, uid: string, gvk: string, sent: KubeObject[], desired: string): KubeObject[] {
  const review = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const response = review['response'] as ConversionResponse | undefined;
  if (review['apiVersion'] !== 'apiextensions.k8s.io/v1' || review['kind'] !== 'ConversionReview' || !response) {
    throw failed(
      gvk,
      `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${String(review['apiVersion'] ?? '')}, Kind=${String(review['kind'] ?? '')}`,
    );
  }
  if (response.uid !== uid) throw failed(gvk, `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(String(response.uid ?? ''))}`);
  if (response.result?.status !== 'Success') {
    throw internalError(`conversion webhook for ${gvk} returned failure: ${String(response.result?.message ?? '')}`);
  }
  const objects = Array.isArray(response.convertedObjects) ? (response.convertedObjects as KubeObject[]) : [];
  if (objects.length !== sent.length) throw failed(gvk, `returned ${objects.length} objects, expected ${sent.length}`);
  objects.forEach((object, index) => checkConverted(object, sent[index] as KubeObject, index, gvk, desired));
  return objects;
}

/** checkConverted: the webhook may change labels and annotations, not the rest of metadata. */
function checkConverted(object: KubeObject, original: KubeObject, index: number, gvk: string, desired: string): void {
  const invalid = (why: string) => failed(gvk, `invalid converted object at index ${index}: ${why}`);
  if (typeof object !== 'object' || object === null) throw invalid('not an object');
  if (object.apiVersion !== desired) throw invalid(`invalid apiVersion ${JSON.stringify(object.apiVersion)}, expected ${JSON.stringify(desired)}`);
  if (object.kind !== original.kind) throw invalid(`invalid kind ${JSON.stringify(object.kind)}, expected ${JSON.stringify(original.kind)}`);
  const { labels: _l, annotations: _a, ...rest } = (object.metadata ?? {}) as Record<string, unknown>;
  const { labels: _ol, annotations: _oa, ...originalRest } = (original.metadata ?? {}) as Record<string, unknown>;
  if (!deepEqual(rest, originalRest)) throw invalid('must not change metadata other than labels and annotations');
}
