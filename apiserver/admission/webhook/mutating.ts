/**
 * MutatingAdmissionWebhook: the matching mutating webhooks are called one after the other,
 * each seeing the object as the previous ones left it; a JSON patch answer is applied to the
 * object. A webhook with reinvocationPolicy IfNeeded is called once more when a later webhook
 * changed the object after it ran.
 */
import { ApiError, internalError } from '../../api/api-error.js';
import { deepEqual } from '../../api/deep-equal.js';
import type { KubeObject } from '../../api/resource-definition.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import type { RegistryContext } from '../../registry/context.js';
import { decodeObject } from '../../registry/object-codec.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from '../plugin.js';
import { type ConfiguredWebhook, webhooksOf } from './configurations.js';
import { callWebhook } from './dispatch.js';
import { denied } from './errors.js';
import { recordAnswer } from './result.js';

export const mutatingAdmissionWebhook: AdmissionPlugin = {
  name: 'MutatingAdmissionWebhook',
  async admit(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): Promise<void> {
    const webhooks = webhooksOf(ctx.store, 'mutating');
    if (webhooks.length === 0) return;
    // changes counts the mutations; changesSeen[i] is the count right after webhook i ran.
    let changes = 0;
    const changesSeen = new Map<number, number>();
    for (const [index, configured] of webhooks.entries()) {
      const called = await mutate(ctx, configured, attributes, result, { round: 0, index });
      if (called === 'mutated') changes++;
      if (called !== 'skipped') changesSeen.set(index, changes);
    }
    for (const [index, seen] of changesSeen) {
      const configured = webhooks[index] as ConfiguredWebhook;
      if (configured.webhook.reinvocationPolicy !== 'IfNeeded' || seen === changes) continue;
      await mutate(ctx, configured, attributes, result, { round: 1, index });
    }
  },
};

type Call = 'skipped' | 'unchanged' | 'mutated';

async function mutate(
  ctx: RegistryContext,
  configured: ConfiguredWebhook,
  a: AdmissionAttributes,
  result: AdmissionResult,
  at: { round: number; index: number },
): Promise<Call> {
  const { webhook } = configured;
  const answer = await callWebhook(ctx, webhook, a, true);
  if (!answer) return 'skipped';
  recordAnswer(result, webhook.name, answer);
  if (!answer.allowed) throw denied(webhook.name, answer.status);
  const mutated = answer.patch !== undefined && a.object !== undefined && applyPatch(a, answer.patch as string);
  // kube-apiserver's per-call audit annotation, saying who was called and whether it mutated.
  result.auditAnnotations[`mutation.webhook.admission.k8s.io/round_${at.round}_index_${at.index}`] = JSON.stringify({
    configuration: configured.configuration,
    webhook: webhook.name,
    mutated,
  });
  return mutated ? 'mutated' : 'unchanged';
}

/** applyPatch applies the webhook's JSON patch to the object and decodes the result as the
 * kind's schema; true when it changed. A patch that cannot be applied or breaks the object is
 * kube-apiserver's 500 Internal error (whatever the failurePolicy: the webhook answered). */
function applyPatch(a: AdmissionAttributes, patchText: string): boolean {
  const object = a.object as KubeObject;
  let patched: unknown;
  try {
    patched = applyJsonPatch(object, JSON.parse(patchText));
  } catch (err) {
    throw internalError((err as Error).message);
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw internalError('the patched object must be a JSON object');
  let decoded: KubeObject;
  try {
    decoded = decodeObject(a.def, patched as Record<string, unknown>, { fieldValidation: 'Ignore', warnings: [] });
  } catch (err) {
    if (err instanceof ApiError) throw internalError(err.message);
    throw err;
  }
  if (deepEqual(decoded, object)) return false;
  a.object = decoded;
  return true;
}
