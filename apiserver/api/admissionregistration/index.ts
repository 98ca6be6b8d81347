/**
 * admissionregistration.k8s.io: webhook configurations and validating admission policies,
 * stored and validated (enforcement comes with the admission issue).
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ (meta, printing,
 * validation, resource-definition) and zod. See docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { validatingAdmissionPolicyBindingDefinition, validatingAdmissionPolicyDefinition } from './admission-policy.js';
import { mutatingWebhookConfigurationDefinition, validatingWebhookConfigurationDefinition } from './webhook-configuration.js';

/** admissionregistrationDefinitions lists the group's served kinds. */
export const admissionregistrationDefinitions: AnyResourceDefinition[] = [
  mutatingWebhookConfigurationDefinition,
  validatingAdmissionPolicyDefinition,
  validatingAdmissionPolicyBindingDefinition,
  validatingWebhookConfigurationDefinition,
];
