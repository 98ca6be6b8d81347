/**
 * ValidatingAdmissionWebhook: every matching validating webhook is called in parallel; the
 * request is rejected by the first (in configuration order) that denies it or fails under
 * failurePolicy Fail. Warnings and audit annotations of all answers are kept.
 */
import type { RegistryContext } from '../../registry/context.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResult } from '../plugin.js';
import { webhooksOf } from './configurations.js';
import { callWebhook } from './dispatch.js';
import { denied } from './errors.js';
import { recordAnswer } from './result.js';

export const validatingAdmissionWebhook: AdmissionPlugin = {
  name: 'ValidatingAdmissionWebhook',
  async validate(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): Promise<void> {
    const webhooks = webhooksOf(ctx.store, 'validating');
    if (webhooks.length === 0) return;
    const outcomes = await Promise.allSettled(webhooks.map(({ webhook }) => callWebhook(ctx, webhook, attributes, false)));
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'rejected') throw outcome.reason;
      const answer = outcome.value?.answer;
      if (!answer) continue;
      const name = webhooks[index]?.webhook.name ?? '';
      recordAnswer(result, name, answer);
      if (!answer.allowed) throw denied(name, answer.status);
    }
  },
};
