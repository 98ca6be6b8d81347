/**
 * The container's environment as the kubelet and runtime build it: the image's ENV, HOSTNAME,
 * envFrom and env (valueFrom sources, `$(VAR)` expansion), the service links of the namespace's
 * Services (and the kubernetes Service of default), and HOME.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import type { ObjectCache } from './cluster-objects.js';
import { podField, resourceField } from './pod-fields.js';

type Container = DeepReadonly<NonNullable<Pod['spec']>['containers'][number]>;

/** expandReferences replaces `$(VAR)` with VAR's value when defined; `$$(VAR)` is a literal `$(VAR)`. */
export function expandReferences(text: string, lookup: (name: string) => string | undefined): string {
  return text.replace(/\$\$|\$\(([^)]*)\)/g, (all, name: string | undefined) => {
    if (name === undefined) return '$';
    return lookup(name) ?? all;
  });
}

/** serviceLinkVariables: the docker-link style variables of one Service (none for headless ones). */
export function serviceLinkVariables(service: Record<string, unknown>): Array<[string, string]> {
  const spec = (service['spec'] ?? {}) as { clusterIP?: string; ports?: Array<{ name?: string; port: number; protocol?: string }> };
  const name = String((service['metadata'] as { name?: string } | undefined)?.name ?? '');
  const ip = spec.clusterIP;
  if (!ip || ip === 'None') return [];
  const prefix = name.toUpperCase().replace(/-/g, '_');
  const ports = spec.ports ?? [];
  const vars: Array<[string, string]> = [[`${prefix}_SERVICE_HOST`, ip]];
  if (ports.length === 0) return vars;
  vars.push([`${prefix}_SERVICE_PORT`, String(ports[0]!.port)]);
  for (const port of ports) if (port.name) vars.push([`${prefix}_SERVICE_PORT_${port.name.toUpperCase().replace(/-/g, '_')}`, String(port.port)]);
  const first = ports[0]!;
  vars.push([`${prefix}_PORT`, `${(first.protocol ?? 'TCP').toLowerCase()}://${ip}:${first.port}`]);
  for (const port of ports) {
    const protocol = (port.protocol ?? 'TCP').toLowerCase();
    const base = `${prefix}_PORT_${port.port}_${protocol.toUpperCase()}`;
    vars.push([base, `${protocol}://${ip}:${port.port}`], [`${base}_PROTO`, protocol], [`${base}_PORT`, String(port.port)], [`${base}_ADDR`, ip]);
  }
  return vars;
}

/** serviceLinks: the variables of the namespace's Services (when enableServiceLinks is not false)
 * and of the kubernetes Service in default, the namespace's own Services winning a clash. */
async function serviceLinks(pod: DeepReadonly<Pod>, objects: ObjectCache): Promise<Array<[string, string]>> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const enabled = pod.spec?.enableServiceLinks !== false;
  const services = new Map<string, Record<string, unknown>>();
  const master = await objects.get('services', 'kubernetes', 'default');
  if (master) services.set('kubernetes', master);
  if (enabled) {
    const listed = await objects.reader.list('services', namespace);
    for (const service of listed) services.set(String((service['metadata'] as { name?: string }).name), service);
  }
  return [...services.keys()].sort().flatMap((name) => serviceLinkVariables(services.get(name)!));
}

export interface EnvironmentInput {
  readonly pod: DeepReadonly<Pod>;
  readonly container: Container;
  readonly imageEnv: ReadonlyArray<readonly [string, string]>;
  readonly hostname: string;
  readonly home: string;
  readonly objects: ObjectCache;
}

/** buildEnvironment: the ordered environment a process of the container starts with. */
export async function buildEnvironment(input: EnvironmentInput): Promise<Array<[string, string]>> {
  const { pod, container, objects } = input;
  const declared = new Map<string, string>();
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef ?? source.secretRef;
    const keys = ref?.name ? await objects.keys(source.configMapRef ? 'configmaps' : 'secrets', ref.name) : undefined;
    for (const [key, value] of keys ?? []) declared.set(`${source.prefix ?? ''}${key}`, new TextDecoder().decode(value));
  }
  const links = await serviceLinks(pod, objects);
  // $(VAR) sees the variables defined so far and the service links, as the kubelet's mapping does.
  const lookup = (name: string) => declared.get(name) ?? links.find(([key]) => key === name)?.[1];
  for (const variable of container.env ?? []) {
    const value = variable.valueFrom ? await valueFrom(input, variable.valueFrom) : expandReferences(variable.value ?? '', lookup);
    if (value !== undefined) declared.set(variable.name, value);
  }
  const env = new Map<string, string>(input.imageEnv.map(([k, v]) => [k, v]));
  env.set('HOSTNAME', input.hostname);
  for (const [key, value] of declared) env.set(key, value);
  for (const [key, value] of links) if (!declared.has(key)) env.set(key, value);
  if (!env.has('HOME')) env.set('HOME', input.home);
  return [...env];
}

type ValueFrom = NonNullable<Container['env']>[number]['valueFrom'];

async function valueFrom(input: EnvironmentInput, source: NonNullable<ValueFrom>): Promise<string | undefined> {
  const ref = source.configMapKeyRef ?? source.secretKeyRef;
  if (ref) {
    const keys = ref.name ? await input.objects.keys(source.configMapKeyRef ? 'configmaps' : 'secrets', ref.name) : undefined;
    const value = keys?.get(ref.key);
    return value === undefined ? undefined : new TextDecoder().decode(value);
  }
  if (source.fieldRef) return podField(input.pod, source.fieldRef.fieldPath);
  if (source.resourceFieldRef) {
    const { containerName, resource, divisor } = source.resourceFieldRef;
    const allocatable = await nodeAllocatable(input);
    return resourceField(input.pod, containerName || input.container.name, resource, divisor, allocatable);
  }
  return undefined;
}

/** nodeAllocatable: what a limit defaults to when the container sets none. */
async function nodeAllocatable(input: EnvironmentInput): Promise<Record<string, string> | undefined> {
  const nodeName = input.pod.spec?.nodeName;
  if (!nodeName) return undefined;
  const node = await input.objects.get('nodes', nodeName, '');
  return ((node?.['status'] ?? {}) as { allocatable?: Record<string, string> }).allocatable;
}
