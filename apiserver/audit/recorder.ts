/**
 * What the request path tells the audit log about one audited request, beyond its method and
 * URL: the admission chain's audit annotations and the decoded request body. Present on a
 * request (and on its handler context) only when the policy logs it, so an unaudited request
 * pays one property read.
 */
export interface AuditRecorder {
  /** The event's annotations: authorization's decision and reason, admission plugins' and
   * webhooks' audit annotations ("plugin-domain/key" → value). */
  readonly annotations: Record<string, string>;
  /** The decoded body of a create or update, or a patch: names the object in objectRef and is
   * logged as requestObject at the Request and RequestResponse levels. */
  requestObject(object: unknown): void;
}
