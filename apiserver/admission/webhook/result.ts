/** What every webhook answer adds to the admission result: its warnings, and its audit
 * annotations under `<webhook name>/<key>` as kube-apiserver records them. */
import type { AdmissionResult } from '../plugin.js';
import type { AdmissionResponse } from './review.js';

export function recordAnswer(result: AdmissionResult, webhook: string, answer: AdmissionResponse): void {
  result.warnings.push(...answer.warnings);
  for (const [key, value] of Object.entries(answer.auditAnnotations)) result.auditAnnotations[`${webhook}/${key}`] = value;
}
