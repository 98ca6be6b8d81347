/**
 * ResourceQuota admission, as kube-apiserver's ResourceQuota plugin: a create that would take
 * a namespace past one of its quotas is refused (403 `exceeded quota: …`), and an admitted one
 * is charged to the quotas' status.used at once, so a burst of creates cannot slip past
 * before the resourcequota controller recounts. What an object uses is the controller's own
 * accounting (apiserver/api/core/quota-usage.ts). A quota whose status the controller has not
 * filled yet refuses what it limits (`status unknown for quota`), and one limiting cpu or
 * memory refuses pods whose containers do not state them (`failed quota: … must specify …`),
 * as in Kubernetes. Last in the chain: its check and charge run in the same synchronous block
 * as the store write (apiserver/admission/chain.ts).
 */
import type { StoredObject } from '../../../store/index.js';
import { forbidden } from '../../api/api-error.js';
import { computeUsage, podConstraintError } from '../../api/core/quota-usage.js';
import type { ResourceQuota } from '../../api/core/resource-quota.js';
import { parseQuantity, type Quantity } from '../../api/quantity.js';
import { type KubeObject, qualifiedResource, type ResourceDefinition } from '../../api/resource-definition.js';
import type { RegistryContext } from '../../registry/context.js';
import type { AdmissionPlugin } from '../plugin.js';

const QUOTAS = 'resourcequotas';

interface Charge {
  quota: ResourceQuota;
  requested: Record<string, Quantity>;
}

export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  handles: (operation, def, subresource) => operation === 'CREATE' && def.namespaced && subresource === '',
  validate(ctx, { def, object, dryRun }) {
    if (object) admitQuota(ctx, def, object, dryRun);
  },
};

/** admitQuota throws 403 when creating `object` would exceed a quota of its namespace;
 * otherwise, unless `dryRun`, adds its usage to those quotas' status.used. */
function admitQuota(ctx: RegistryContext, def: ResourceDefinition, object: KubeObject, dryRun: boolean): void {
  if (!def.namespaced) return;
  const namespace = object.metadata.namespace ?? '';
  const quotas = ctx.store.list({ resource: QUOTAS, namespace }).items as unknown as ResourceQuota[];
  if (quotas.length === 0) return;
  const refused = (message: string) =>
    forbidden(`${qualifiedResource(def)} "${object.metadata.name ?? ''}" is forbidden: ${message}`, {
      kind: def.plural,
      group: def.group,
      name: object.metadata.name,
    });
  const objects = new Map([[def.storage.resource, [object]]]);
  const charges: Charge[] = [];
  for (const quota of quotas) {
    const constraint = def.storage.resource === 'pods' ? podConstraintError(object as never, quota, ctx.now()) : undefined;
    if (constraint !== undefined) throw refused(`failed quota: ${quota.metadata.name}: ${constraint}`);
    const requested = nonZero(computeUsage({ quota, objects, nowMs: ctx.now() }));
    const names = Object.keys(requested).sort();
    if (names.length === 0) continue;
    const unknown = names.filter((name) => quota.status?.hard?.[name] === undefined);
    if (unknown.length > 0) throw refused(`status unknown for quota: ${quota.metadata.name}, resources: ${unknown.join(',')}`);
    const used = (name: string) => parseQuantity(quota.status?.used?.[name] ?? '0');
    const hard = (name: string) => parseQuantity(quota.status?.hard?.[name] ?? '0');
    const exceeded = names.filter((name) => used(name).add(requested[name]!).cmp(hard(name)) > 0);
    if (exceeded.length > 0) {
      const list = (value: (name: string) => Quantity) => exceeded.map((name) => `${name}=${value(name)}`).join(',');
      throw refused(`exceeded quota: ${quota.metadata.name}, requested: ${list((name) => requested[name]!)}, used: ${list(used)}, limited: ${list(hard)}`);
    }
    charges.push({ quota, requested });
  }
  if (!dryRun) for (const charge of charges) chargeQuota(ctx, charge);
}

function nonZero(usage: Record<string, string>): Record<string, Quantity> {
  const requested: Record<string, Quantity> = {};
  for (const [name, text] of Object.entries(usage)) {
    const quantity = parseQuantity(text);
    if (!quantity.isZero()) requested[name] = quantity;
  }
  return requested;
}

/** chargeQuota writes status.used + requested; the controller later replaces it with a recount. */
function chargeQuota(ctx: RegistryContext, { quota, requested }: Charge): void {
  const used = { ...quota.status?.used };
  for (const [name, quantity] of Object.entries(requested))
    used[name] = parseQuantity(used[name] ?? '0')
      .add(quantity)
      .toString();
  const charged = { ...quota, status: { ...quota.status, used } };
  const { namespace = '', name = '' } = quota.metadata;
  ctx.store.update({ resource: QUOTAS, namespace, name }, charged as unknown as StoredObject, { actor: ctx.actor });
}
