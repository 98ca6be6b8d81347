/**
 * Admission webhooks (MutatingAdmissionWebhook, ValidatingAdmissionWebhook) as admission chain
 * plugins, and the webhook client shared with CRD conversion webhooks. See docs/security.md,
 * "Admission webhooks".
 */
export { postReview, type WebhookClientConfig } from './client.js';
export { WebhookCallError } from './errors.js';
export { mutatingAdmissionWebhook } from './mutating.js';
export { validatingAdmissionWebhook } from './validating.js';
