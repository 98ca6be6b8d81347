/** core/v1 Namespace: a scope for names, and the unit of deletion for everything inside. */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { kindConditionSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { KindStrategy, KubeObject, ResourceDefinition } from '../resource-definition.js';
import { NamespaceMessage } from './namespace-protobuf.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';

/** KUBERNETES_FINALIZER holds a namespace until everything in it has been deleted. */
export const KUBERNETES_FINALIZER = 'kubernetes';

export const NAMESPACE_PHASES = ['Active', 'Terminating'] as const;

export const NamespaceConditionSchema = kindConditionSchema(
  `${K8S_CORE}.NamespaceCondition`,
  "NamespaceCondition is one aspect of a namespace's state.",
  'Type of the condition, e.g. NamespaceContentRemaining.',
);

export const NamespaceSchema = z
  .object({
    ...typeMetaFields('v1', 'Namespace'),
    spec: z
      .object({
        finalizers: z
          .array(z.string())
          .optional()
          .describe('Must be empty before the namespace is removed; "kubernetes" waits for its contents to be deleted.'),
      })
      .meta({ id: `${K8S_CORE}.NamespaceSpec`, description: 'NamespaceSpec describes the attributes of a namespace.' })
      .optional(),
    status: z
      .object({
        phase: enumOf(NAMESPACE_PHASES).optional().describe('Active, or Terminating while its contents are deleted.'),
        conditions: z.array(NamespaceConditionSchema).optional().meta(mergeByKey('type')).describe('Current state of the namespace.'),
      })
      .meta({ id: `${K8S_CORE}.NamespaceStatus`, description: 'NamespaceStatus is the observed state of a namespace.' })
      .optional(),
  })
  .meta({ id: `${K8S_CORE}.Namespace`, description: 'Namespace provides a scope for names of namespaced objects.' });

export type Namespace = z.infer<typeof NamespaceSchema>;

/** NAMESPACE_NAME_LABEL is set on every namespace to its name (kube-apiserver does so since
 * 1.21), so that namespaceSelectors can pick namespaces by name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** labelWithName sets NAMESPACE_NAME_LABEL to the namespace's name, overriding any other value. */
function labelWithName(namespace: KubeObject): void {
  const name = namespace.metadata.name;
  if (name) namespace.metadata.labels = { ...namespace.metadata.labels, [NAMESPACE_NAME_LABEL]: name };
}

/** defaultNamespace adds the name label, the kubernetes finalizer and the Active phase when unset. */
export function defaultNamespace(namespace: Namespace): void {
  labelWithName(namespace);
  const spec = (namespace.spec ??= {});
  spec.finalizers ??= [KUBERNETES_FINALIZER];
  const status = (namespace.status ??= {});
  status.phase ??= 'Active';
}

/** Deleting a Namespace moves it to Terminating; it is removed only when the namespace
 * controller has emptied it and cleared spec.finalizers (through /finalize). */
const namespaceStrategy: KindStrategy = {
  returnDeletedObject: true,
  // Defaulting labels a namespace whose name is known; one named by generateName only gets
  // its name afterwards, so the label is (re)set here too, as kube-apiserver's Canonicalize does.
  beforeCreate: labelWithName,
  beforeUpdate: labelWithName,
  canBeRemoved(object: KubeObject): boolean {
    return ((object as unknown as Namespace).spec?.finalizers ?? []).length === 0;
  },
  onMarkedForDeletion(object: KubeObject): void {
    const namespace = object as unknown as Namespace;
    namespace.status = { ...namespace.status, phase: 'Terminating' };
  },
};

export const namespaceDefinition: ResourceDefinition<Namespace> = {
  ...KIND_IDS.namespace,
  singular: 'namespace',
  shortNames: ['ns'],
  categories: [],
  nameRule: 'dns1123-label',
  schema: NamespaceSchema,
  defaults: defaultNamespace,
  strategy: namespaceStrategy,
  tracksGeneration: false,
  subresources: { status: true, extra: ['finalize'] },
  // kube-apiserver's namespace storage has no DeleteCollection: removing every namespace at
  // once is not an operation it offers (api-resources shows the verbs without it).
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  printColumns: [nameColumn, column('Status', (ns: Namespace) => ns.status?.phase ?? '', { description: 'The status of the namespace.' }), ageColumn],
  fieldSelectors: {
    'status.phase': (ns) => ns.status?.phase ?? '',
  },
  protobuf: NamespaceMessage,
  storage: { resource: 'namespaces' },
};
