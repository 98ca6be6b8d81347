/**
 * INTERIM (until the admission chain of issue 17 is merged): runs this plugin alone from the
 * registry's create, update and delete paths, synchronously, so ValidatingAdmissionPolicy
 * works end to end on this branch. The chain replaces every call of this function by
 * registering `validatingAdmissionPolicy` among its validating plugins; then delete this file
 * and its calls (marked "interim VAP wiring").
 */
import type { RegistryContext } from '../../registry/context.js';
import type { AdmissionAttributes } from '../plugin.js';
import { validatingAdmissionPolicy } from './plugin.js';

const SERVER = { username: '', groups: [] };

/** runPolicyAdmission validates one write; warnings (when given) receive the Warn results. */
export function runPolicyAdmission(ctx: RegistryContext, attributes: Omit<AdmissionAttributes, 'user'>, warnings?: string[]): void {
  const result = { warnings: [] as string[], auditAnnotations: {} as Record<string, string> };
  void validatingAdmissionPolicy.validate?.(ctx, { ...attributes, user: ctx.user ?? SERVER }, result);
  warnings?.push(...result.warnings);
}
