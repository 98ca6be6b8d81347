/**
 * Calling one admission webhook for one request, as kube-apiserver's webhook dispatchers do:
 * is it concerned (rules, selectors, matchConditions), may it be called (dryRun and
 * sideEffects), then the AdmissionReview round trip and failurePolicy for what went wrong.
 */
import type { Webhook } from '../../api/admissionregistration/webhook.js';
import type { RegistryContext } from '../../registry/context.js';
import type { AdmissionAttributes } from '../plugin.js';
import { postReview } from './client.js';
import { matchesConditions } from './conditions.js';
import { callFailed, dryRunUnsupported, WebhookCallError } from './errors.js';
import { matchesNamespaceSelector, matchesObjectSelector, matchesRules } from './matching.js';
import { type AdmissionResponse, admissionRequest, admissionReview, reviewVersionFor, verifyResponse } from './review.js';

const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 30;

/** callWebhook returns the webhook's verified answer, or undefined when it does not apply or
 * failed with failurePolicy Ignore. Throws the ApiError kube-apiserver answers: 500 for a
 * failed call under failurePolicy Fail, 400 for a dry run it cannot take. */
export async function callWebhook(ctx: RegistryContext, webhook: Webhook, a: AdmissionAttributes, mutating: boolean): Promise<AdmissionResponse | undefined> {
  if (!matchesRules(webhook, a) || !matchesNamespaceSelector(ctx, webhook, a) || !matchesObjectSelector(webhook, a)) return undefined;
  try {
    const request = admissionRequest(a);
    if (!matchesConditions(webhook, { object: a.object ?? null, oldObject: a.oldObject ?? null, request })) return undefined;
    if (a.dryRun && webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(webhook.name);
    const version = reviewVersionFor(webhook.admissionReviewVersions);
    if (!version) throw new WebhookCallError(`webhook does not accept known AdmissionReview versions`);
    const timeout = Math.min(webhook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    const body = await postReview(ctx, webhook.clientConfig ?? {}, admissionReview(version, request), timeout);
    return verifyResponse(body, version, request['uid'] as string, mutating);
  } catch (err) {
    if (!(err instanceof WebhookCallError)) throw err;
    if (webhook.failurePolicy === 'Ignore') return undefined;
    throw callFailed(webhook.name, err.message);
  }
}
