/**
 * Finding the client for an HPA's scaleTargetRef: the HPA reaches its target only through the
 * /scale subresource, so any kind that serves /scale works — built-ins by their known
 * definitions, other kinds (custom resources) through discovery, matched by API group and
 * kind as Kubernetes' RESTMapper does (the version in the reference does not have to be the
 * served one).
 */
import type { CrossVersionObjectReference } from '../../apiserver/api/autoscaling/metric-spec.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import type { DeepReadonly, ResourceClient } from '../runtime/types.js';

/** ScaleTargetResolver knows how to find the client of a scale target's kind. */
export interface ScaleTargetResolver {
  /** Rejects with an Error (Kubernetes' words) when the apiVersion cannot be parsed or no
   * served kind matches; with the discovery error when discovery fails. */
  clientFor(ref: DeepReadonly<CrossVersionObjectReference>): Promise<ResourceClient>;
}

/**
 * createScaleTargetResolver returns a ScaleTargetResolver over `client`. Kinds found through
 * discovery are remembered for the life of the process (a kind removed later simply makes
 * its /scale calls fail); a kind not found is looked up again on the next call.
 */
export function createScaleTargetResolver(client: Pick<KubeClient, 'forKind' | 'discover' | 'resource'>): ScaleTargetResolver {
  const discovered = new Map<string, ResourceClient>();
  return {
    async clientFor(ref) {
      const apiVersion = ref.apiVersion ?? '';
      const group = groupOf(apiVersion);
      const builtIn = await tryForKind(client, apiVersion, ref.kind);
      if (builtIn) return builtIn;
      const cacheKey = `${group}/${ref.kind}`;
      const known = discovered.get(cacheKey);
      if (known) return known;
      const def = (await client.discover()).find((d) => d.group === group && d.kind === ref.kind);
      if (!def) throw new Error(`no matches for kind "${ref.kind}" in group "${group}"`);
      const resolved = client.resource(def);
      discovered.set(cacheKey, resolved);
      return resolved;
    },
  };
}

/** tryForKind is the client of a kind the KubeClient was built with, else undefined (forKind
 * rejects for kinds it does not know: those are asked of discovery instead). */
function tryForKind(client: Pick<KubeClient, 'forKind'>, apiVersion: string, kind: string): Promise<ResourceClient | undefined> {
  return client.forKind(apiVersion, kind).catch(() => undefined);
}

/** groupOf is the API group of `group/version` ('' for the core `v1`); throws, in
 * Kubernetes' words, for more than one slash. */
function groupOf(apiVersion: string): string {
  const parts = apiVersion.split('/');
  if (parts.length > 2) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
  return parts.length === 2 ? (parts[0] ?? '') : '';
}
