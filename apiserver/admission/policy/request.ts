/**
 * The CEL activation of a request: `request` as cel.CreateAdmissionRequest builds it (kind and
 * resource are the matched version, requestKind/requestResource the addressed one; empty
 * fields left out as in the unstructured AdmissionRequest), `namespaceObject` as
 * cel.CreateNamespaceObject trims it, and object/oldObject converted to the matched version.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import { type RegistryContext, storageDefinitionOf } from '../../registry/context.js';
import { toServed, toStored } from '../../registry/object-codec.js';
import type { AdmissionAttributes } from '../plugin.js';

const kindOf = (def: ResourceDefinition) => ({ group: def.group, version: def.version, kind: def.kind });
const resourceOf = (def: ResourceDefinition) => ({ group: def.group, version: def.version, resource: def.plural });

/** admissionRequest is the plain JSON of the `request` variable. */
export function admissionRequest(attributes: AdmissionAttributes, matched: ResourceDefinition): Record<string, unknown> {
  const { user } = attributes;
  const userInfo: Record<string, unknown> = { username: user.username };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  const request: Record<string, unknown> = { uid: randomUUID(), kind: kindOf(matched), resource: resourceOf(matched) };
  if (attributes.subresource) request.subResource = attributes.subresource;
  request.requestKind = kindOf(attributes.def);
  request.requestResource = resourceOf(attributes.def);
  if (attributes.subresource) request.requestSubResource = attributes.subresource;
  if (attributes.name) request.name = attributes.name;
  if (attributes.namespace) request.namespace = attributes.namespace;
  request.operation = attributes.operation;
  request.userInfo = userInfo;
  request.dryRun = attributes.dryRun;
  if (attributes.options) request.options = attributes.options;
  return request;
}

/** namespaceObject keeps the Namespace fields policies may read. */
export function namespaceObject(namespace: KubeObject | undefined): Record<string, unknown> | null {
  if (!namespace) return null;
  const { managedFields: _m, ownerReferences: _o, selfLink: _s, ...metadata } = namespace.metadata as Record<string, unknown>;
  const object: Record<string, unknown> = { metadata };
  for (const key of ['spec', 'status'] as const) if ((namespace as Record<string, unknown>)[key]) object[key] = (namespace as Record<string, unknown>)[key];
  return object;
}

/** inVersion converts an object to an equivalent served version (matchPolicy Equivalent). */
export function inVersion(ctx: RegistryContext, object: KubeObject | undefined, from: ResourceDefinition, to: ResourceDefinition): KubeObject | undefined {
  if (!object || from === to) return object;
  return toServed(to, toStored(from, object, storageDefinitionOf(ctx, from)));
}
