/**
 * Calling one admission webhook for one request, as kube-apiserver's webhook dispatchers do:
 * is it concerned (rules, selectors, matchConditions), may it be called (dryRun and
 * sideEffects), then the AdmissionReview round trip and failurePolicy for what went wrong.
 */
import type { Webhook } from '../../api/admissionregistration/webhook.js';
import type { ResourceDefinition } from '../../api/resource-definition.js';
import type { RegistryContext } from '../../registry/context.js';
import type { AdmissionAttributes } from '../plugin.js';
import { postReview } from './client.js';
import { matchesConditions } from './conditions.js';
import { callFailed, dryRunUnsupported, WebhookCallError } from './errors.js';
import { matchesNamespaceSelector, matchesObjectSelector, matchingVersion } from './matching.js';
import { type AdmissionResponse, admissionRequest, admissionReview, reviewVersionFor, type Versioned, verifyResponse } from './review.js';
import { convertBetween } from './versioned.js';

const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 30;

/** Call is a webhook's verified answer and the request as it saw it. */
export interface Call {
  answer: AdmissionResponse;
  versioned: Versioned;
}

/** callWebhook returns the webhook's verified answer, or undefined when it does not apply or
 * failed with failurePolicy Ignore. Throws the ApiError kube-apiserver answers: 500 for a
 * failed call under failurePolicy Fail, 400 for a dry run it cannot take. */
export async function callWebhook(ctx: RegistryContext, webhook: Webhook, a: AdmissionAttributes, mutating: boolean): Promise<Call | undefined> {
  const matched = matchingVersion(webhook, a, ctx.registry);
  if (!matched || !matchesNamespaceSelector(ctx, webhook, a) || !matchesObjectSelector(webhook, a)) return undefined;
  try {
    const versioned = await versionedFor(ctx, a, matched);
    const request = admissionRequest(a, versioned);
    if (!matchesConditions(webhook, { object: versioned.object ?? null, oldObject: versioned.oldObject ?? null, request })) return undefined;
    if (a.dryRun && webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(webhook.name);
    const version = reviewVersionFor(webhook.admissionReviewVersions);
    if (!version) throw new WebhookCallError(`webhook does not accept known AdmissionReview versions`);
    const timeout = Math.min(webhook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    const body = await postReview(ctx, webhook.clientConfig ?? {}, admissionReview(version, request), timeout);
    return { answer: verifyResponse(body, version, request['uid'] as string, mutating), versioned };
  } catch (err) {
    if (!(err instanceof WebhookCallError)) throw err;
    if (webhook.failurePolicy === 'Ignore') return undefined;
    throw callFailed(webhook.name, err.message);
  }
}

/** versionedFor converts the request's objects to the matched version (no copy when it is the
 * request's own). A conversion that fails is kube's 500, whatever the failurePolicy. */
async function versionedFor(ctx: RegistryContext, a: AdmissionAttributes, def: ResourceDefinition): Promise<Versioned> {
  if (def === a.def) return { def, object: a.object, oldObject: a.oldObject };
  const [object, oldObject] = await Promise.all([convertBetween(ctx, a.object, a.def, def), convertBetween(ctx, a.oldObject, a.def, def)]);
  return { def, object, oldObject };
}
