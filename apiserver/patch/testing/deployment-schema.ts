/**
 * deploymentSchema is a hand-written SchemaDocument shaped like the JSON schema the
 * Deployment's zod schema produces (definitions named by Kubernetes' OpenAPI ids), for
 * strategic merge patch tests that must not depend on the real API types.
 */

import { mergeByKey, mergeByKeyRetainKeys, mergeScalars, retainKeys } from '../../api/patch-meta.js';
import type { SchemaDocument, SchemaNode } from '../../api/schema-node.js';

const ref = (id: string): SchemaNode => ({ $ref: `#/definitions/${id}` });
const string: SchemaNode = { type: 'string' };
const stringMap: SchemaNode = { type: 'object', additionalProperties: string };
const object = (properties: Record<string, SchemaNode>): SchemaNode => ({ type: 'object', properties });
const listOf = (items: SchemaNode, meta: Record<string, unknown> = {}): SchemaNode => ({
  type: 'array',
  items,
  ...meta,
});

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const CORE = 'io.k8s.api.core.v1';
const APPS = 'io.k8s.api.apps.v1';

export const deploymentSchema: SchemaDocument = {
  root: ref(`${APPS}.Deployment`),
  definitions: {
    [`${APPS}.Deployment`]: object({
      apiVersion: string,
      kind: string,
      metadata: ref(`${META}.ObjectMeta`),
      spec: ref(`${APPS}.DeploymentSpec`),
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    }),
    [`${META}.ObjectMeta`]: object({
      name: string,
      labels: stringMap,
      annotations: stringMap,
      finalizers: listOf(string, mergeScalars),
    }),
    [`${APPS}.DeploymentSpec`]: object({
      replicas: { type: 'integer' },
      selector: object({ matchLabels: stringMap }),
      strategy: { ...ref(`${APPS}.DeploymentStrategy`), ...retainKeys },
      template: ref(`${CORE}.PodTemplateSpec`),
      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      config: { type: 'object', additionalProperties: {}, 'x-kubernetes-patch-strategy': 'replace' },
    }),
    [`${APPS}.DeploymentStrategy`]: object({
      type: string,
      rollingUpdate: object({ maxSurge: {}, maxUnavailable: {} }),
    }),
    [`${CORE}.PodTemplateSpec`]: object({ metadata: ref(`${META}.ObjectMeta`), spec: ref(`${CORE}.PodSpec`) }),
    [`${CORE}.PodSpec`]: object({
      containers: listOf(ref(`${CORE}.Container`), mergeByKey('name')),
      tolerations: listOf(ref(`${CORE}.Toleration`)),
      volumes: listOf(ref(`${CORE}.Volume`), mergeByKeyRetainKeys('name')),
      nodeSelector: stringMap,
    }),
    [`${CORE}.Container`]: object({
      name: string,
      image: string,
      args: listOf(string),
      env: listOf(object({ name: string, value: string }), mergeByKey('name')),
      ports: listOf(object({ containerPort: { type: 'integer' }, protocol: string }), mergeByKey('containerPort')),
    }),
    [`${CORE}.Toleration`]: object({ key: string, operator: string, value: string, effect: string }),
    [`${CORE}.Volume`]: object({
      name: string,
      emptyDir: object({ medium: string }),
      configMap: object({ name: string }),
    }),
  },
};

/** deploymentRoot is the `schema` argument for a whole Deployment. */
export const deploymentRoot = { node: deploymentSchema.root, doc: deploymentSchema };
