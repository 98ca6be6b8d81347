/**
 * What every Pod Security Standards check shares (pod-security-admission's policy package):
 * the pod shape the checks read, the check contract, and kube's wording helpers — names
 * quoted and joined, nouns pluralized, sets listed sorted — so each check words its forbidden
 * reason and detail exactly as kube-apiserver does.
 */

export type Level = 'privileged' | 'baseline' | 'restricted';

/** A failed check: kube's ForbiddenReason and ForbiddenDetail. */
export interface Violation {
  reason: string;
  detail: string;
}

interface Profile {
  type?: string;
}

export interface SecurityContextLike {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  procMount?: string;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: Profile;
  appArmorProfile?: Profile;
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  windowsOptions?: { hostProcess?: boolean };
  sysctls?: Array<{ name: string }>;
}

export interface ContainerLike {
  name: string;
  ports?: Array<{ hostPort?: number }>;
  securityContext?: SecurityContextLike;
}

/** SpecLike is the part of a PodSpec the checks read. */
export interface SpecLike {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  os?: { name?: string };
  runtimeClassName?: string;
  securityContext?: SecurityContextLike;
  volumes?: Array<{ name: string } & Record<string, unknown>>;
  initContainers?: ContainerLike[];
  containers?: ContainerLike[];
  ephemeralContainers?: ContainerLike[];
}

/** PodLike: a pod, or a workload's pod template — its annotations and its spec. */
export interface PodLike {
  annotations: Readonly<Record<string, string>>;
  spec: SpecLike;
}

/** What a check reads: the pod, and all its containers, listed once per evaluation. */
export interface PodView extends PodLike {
  allContainers: readonly ContainerLike[];
}

export type CheckPod = (pod: PodView) => Violation | undefined;

/** One version of a check: from `since` (the minor of v1.<minor>) until the next version. */
export interface VersionedCheck {
  since: number;
  check: CheckPod;
  /** Baseline checks this restricted check replaces while it applies. */
  overrides?: readonly string[];
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  versions: readonly VersionedCheck[];
}

/** containersOf lists init, regular and ephemeral containers, in kube's visiting order. */
export function containersOf(spec: SpecLike): ContainerLike[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

/** joinQuote: `"a", "b"`, as kube's joinQuote. */
export const joinQuote = (items: readonly string[]): string => (items.length === 0 ? '' : `"${items.join('", "')}"`);

export const pluralize = (singular: string, plural: string, count: number): string => (count === 1 ? singular : plural);

/** containersNoun: `container "a"` or `containers "a", "b"`. */
export const containersNoun = (names: readonly string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** sortedSet: the distinct values, sorted as Go's sets.String.List() sorts them (by code unit). */
export const sortedSet = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** goQuote quotes a string as Go's %q does for the printable ASCII values labels carry. */
export const goQuote = (value: string): string => JSON.stringify(value);

export const isWindows = (spec: SpecLike): boolean => spec.os?.name === 'windows';

/** settersOf gathers who set a forbidden value: `pod`, then `container(s) "…"`, as kube's
 * badSetters list (joined with " and " in details). */
export function settersOf(podIsBad: boolean, badContainers: readonly string[]): string[] {
  const setters = podIsBad ? ['pod'] : [];
  if (badContainers.length > 0) setters.push(containersNoun(badContainers));
  return setters;
}
