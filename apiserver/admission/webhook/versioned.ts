/**
 * Objects in the version a webhook matched (matchPolicy Equivalent), as kube-apiserver's
 * VersionedAttributes: the request's object converted to that version before the call, and a
 * mutating webhook's patched object converted back. A CRD with a conversion webhook converts
 * through it; every other kind through its storage version (toStored, then toServed).
 */
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import { convertObjects, usesConversionWebhook } from '../../apiextensions/conversion-webhook.js';
import { readCrd } from '../../apiextensions/crd-writes.js';
import type { RegistryContext } from '../../registry/context.js';
import { inVersion } from '../policy/request.js';

/** convertBetween converts `object` (of served version `from`) to served version `to`. */
export async function convertBetween(
  ctx: RegistryContext,
  object: KubeObject | undefined,
  from: ResourceDefinition,
  to: ResourceDefinition,
): Promise<KubeObject | undefined> {
  if (!object || from === to) return object;
  const crd = to.unstructured ? readCrd(ctx, to.storage.resource) : undefined;
  if (!usesConversionWebhook(crd)) return inVersion(ctx, object, from, to);
  const typed = { ...object, apiVersion: apiVersionOf(from), kind: from.kind };
  return (await convertObjects(ctx, crd, [typed], apiVersionOf(to)))[0];
}

function apiVersionOf(def: ResourceDefinition): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}
