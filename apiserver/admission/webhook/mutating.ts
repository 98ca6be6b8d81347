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
import type { Versioned } from './review.js';
import { convertBetween } from './versioned.js';

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
  const call = await callWebhook(ctx, webhook, a, true);
  if (!call) return 'skipped';
  const { answer, versioned } = call;
  recordAnswer(result, webhook.name, answer);
  if (!answer.allowed) throw denied(webhook.name, answer.status);
  const mutated = answer.patch !== undefined && versioned.object !== undefined && (await applyPatch(ctx, a, versioned, answer.patch as string));
  // kube-apiserver's per-call audit annotation, saying who was called and whether it mutated.
  result.auditAnnotations[`mutation.webhook.admission.k8s.io/round_${at.round}_index_${at.index}`] = JSON.stringify({
    configuration: configured.configuration,
    webhook: webhook.name,
    mutated,
  });
  return mutated ? 'mutated' : 'unchanged';
}

/** applyPatch applies the webhook's JSON patch to the object as the webhook saw it, decodes
 * the result as that version's schema and converts it back to the request's version; true
 * when it changed. A patch that cannot be applied or breaks the object is kube-apiserver's
 * 500 Internal error (whatever the failurePolicy: the webhook answered). */
async function applyPatch(ctx: RegistryContext, a: AdmissionAttributes, versioned: Versioned, patchText: string): Promise<boolean> {
  let patched: unknown;
  try {
    patched = applyJsonPatch(versioned.object as KubeObject, JSON.parse(patchText));
  } catch (err) {
    throw internalError((err as Error).message);
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw internalError('the patched object must be a JSON object');
  let decoded: KubeObject;
  try {
    decoded = decodeObject(versioned.def, patched as Record<string, unknown>, { fieldValidation: 'Ignore', warnings: [] });
  } catch (err) {
    if (err instanceof ApiError) throw internalError(err.message);
    throw err;
  }
  if (deepEqual(decoded, versioned.object)) return false;
  a.object = await convertBetween(ctx, decoded, versioned.def, a.def);
  return true;
}
