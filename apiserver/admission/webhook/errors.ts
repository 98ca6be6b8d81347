/**
 * The errors of webhook calls, worded as k8s.io/apiserver/pkg/admission/plugin/webhook/errors
 * and pkg/util/webhook.
 */
import { ApiError, badRequest, type Status } from '../../api/api-error.js';

/** WebhookCallError is a failure to get a usable answer (kube's ErrCallingWebhook reason):
 * what failurePolicy Ignore forgives. Its message is the reason, without the webhook's name. */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
}

/** callFailed is the 500 kube-apiserver answers when a webhook with failurePolicy Fail could
 * not be called: `Internal error occurred: failed calling webhook "x": <reason>`. */
export function callFailed(webhook: string, reason: string): ApiError {
  const message = `failed calling webhook "${webhook}": ${reason}`;
  return new ApiError('InternalError', 500, `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** denied is the rejection a webhook answered (kube's ToStatusErr): its status with the code
 * raised to at least 400 and the message prefixed by `admission webhook "x" denied the request`. */
export function denied(webhook: string, result: Partial<Status> | undefined): ApiError {
  const deniedBy = `admission webhook "${webhook}" denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 && result.code < 600 ? result.code : 400;
  const message = result?.message ? `${deniedBy}: ${result.message}` : result?.reason ? `${deniedBy}: ${result.reason}` : `${deniedBy} without explanation`;
  const reason = typeof result?.reason === 'string' ? result.reason : '';
  return new WebhookDenial(reason as ApiError['reason'], code, message, isObject(result?.details) ? result.details : undefined);
}

/** A webhook's rejection: its reason may be empty, and then the Status has none (omitempty). */
class WebhookDenial extends ApiError {
  override toStatus(): Status {
    const status = super.toStatus();
    if (!status.reason) delete status.reason;
    return status;
  }
}

/** dryRunUnsupported is the 400 for a dry-run request to a webhook that has side effects. */
export function dryRunUnsupported(webhook: string): ApiError {
  return badRequest(`admission webhook "${webhook}" does not support dry run`);
}

function isObject(value: unknown): value is Record<string, never> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
