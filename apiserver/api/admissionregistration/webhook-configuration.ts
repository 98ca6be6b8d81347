/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration: cluster-scoped lists of admission webhooks. Stored,
 * defaulted and validated as kube-apiserver does; calling the webhooks is the next issue.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { MessageType } from '../protobuf/message-type.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { MutatingWebhookConfigurationMessage, ValidatingWebhookConfigurationMessage } from './admissionregistration-protobuf.js';
import { ADMISSION_V1, defaultWebhook, validateWebhooks, type Webhook, webhookFields } from './webhook.js';

const webhookList = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .optional()
    .describe('The webhooks and the resources and operations they apply to.')
    .meta({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    });

const ValidatingWebhookSchema = z.object(webhookFields).meta({
  id: `${ADMISSION_V1}.ValidatingWebhook`,
  description: 'ValidatingWebhook describes an admission webhook and the resources and operations it applies to.',
});

const MutatingWebhookSchema = z
  .object({
    ...webhookFields,
    reinvocationPolicy: z.string().optional().describe('Never (the default) or IfNeeded: whether the webhook is called again after later mutations.'),
  })
  .meta({
    id: `${ADMISSION_V1}.MutatingWebhook`,
    description: 'MutatingWebhook describes an admission webhook and the resources and operations it applies to.',
  });

export const ValidatingWebhookConfigurationSchema = z
  .object({ ...typeMetaFields('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'), webhooks: webhookList(ValidatingWebhookSchema) })
  .meta({
    id: `${ADMISSION_V1}.ValidatingWebhookConfiguration`,
    description: 'ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.',
  });

export const MutatingWebhookConfigurationSchema = z
  .object({ ...typeMetaFields('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'), webhooks: webhookList(MutatingWebhookSchema) })
  .meta({
    id: `${ADMISSION_V1}.MutatingWebhookConfiguration`,
    description: 'MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and may change the object.',
  });

/** WebhookConfiguration is either kind: a validating webhook is a mutating one without reinvocationPolicy. */
type WebhookConfiguration = Omit<z.infer<typeof MutatingWebhookConfigurationSchema>, 'apiVersion' | 'kind'> & { apiVersion?: string; kind?: string };

const webhooksColumn = column('Webhooks', (config: WebhookConfiguration) => config.webhooks?.length ?? 0, {
  type: 'integer',
  description: 'The number of webhooks in the configuration.',
});

/** webhookConfigurationDefinition: what the two kinds share, differing in kind and mutation. */
function webhookConfigurationDefinition(
  kind: string,
  plural: string,
  schema: z.ZodType<WebhookConfiguration>,
  mutating: boolean,
  protobuf: MessageType,
): ResourceDefinition<WebhookConfiguration> {
  return {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind,
    plural,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: ['api-extensions'],
    namespaced: false,
    schema,
    defaults: (config: WebhookConfiguration) => {
      for (const webhook of config.webhooks ?? []) {
        defaultWebhook(webhook as Webhook);
        if (mutating) webhook.reinvocationPolicy ??= 'Never';
      }
    },
    validate: (config: WebhookConfiguration) => validateWebhooks(config.webhooks, mutating),
    tracksGeneration: true,
    subresources: {},
    printColumns: [nameColumn, webhooksColumn, ageColumn],
    storage: { resource: `${plural}.admissionregistration.k8s.io` },
    protobuf,
  };
}

export const validatingWebhookConfigurationDefinition = webhookConfigurationDefinition(
  'ValidatingWebhookConfiguration',
  'validatingwebhookconfigurations',
  ValidatingWebhookConfigurationSchema,
  false,
  ValidatingWebhookConfigurationMessage,
);

export const mutatingWebhookConfigurationDefinition = webhookConfigurationDefinition(
  'MutatingWebhookConfiguration',
  'mutatingwebhookconfigurations',
  MutatingWebhookConfigurationSchema,
  true,
  MutatingWebhookConfigurationMessage,
);
