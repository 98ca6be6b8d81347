/**
 * The Pod Security Standards checks of kube 1.33 (pod-security-admission's policy package),
 * for the baseline and restricted levels: each check looks at a pod spec and returns a
 * forbidden reason and detail worded as kube-apiserver words them, or nothing.
 *
 * Order: kube evaluates the level's baseline checks, then the restricted-only ones, each
 * group by check id; a restricted check replaces the baseline check it tightens
 * (capabilities, seccompProfile). Not covered yet: appArmorProfile, procMount,
 * seLinuxOptions, sysctls, windowsHostProcess and restricted volume types.
 */

export type Level = 'privileged' | 'baseline' | 'restricted';

export interface Violation {
  reason: string;
  detail: string;
}

interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type?: string };
}

interface ContainerLike {
  name: string;
  ports?: Array<{ hostPort?: number }>;
  securityContext?: SecurityContext;
}

/** SpecLike is the part of a PodSpec the checks read. */
export interface SpecLike {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: SecurityContext;
  volumes?: Array<{ name: string; hostPath?: unknown }>;
  initContainers?: ContainerLike[];
  containers?: ContainerLike[];
  ephemeralContainers?: ContainerLike[];
}

type Check = (spec: SpecLike) => Violation | undefined;

/** The capabilities baseline allows containers to add (kube's capabilities_baseline). */
const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

function containersOf(spec: SpecLike): ContainerLike[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

/** noun words a list of names as kube does: `container "a"`, `containers "a", "b"`. */
function noun(singular: string, names: readonly string[]): string {
  return `${names.length === 1 ? singular : `${singular}s`} ${quoted(names)}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

const hostNamespaces: Check = (spec) => {
  const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((field) => spec[field] === true).map((field) => `${field}=true`);
  return set.length > 0 ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
};

const hostPathVolumes: Check = (spec) => {
  const names = (spec.volumes ?? []).filter((volume) => volume.hostPath !== undefined).map((volume) => volume.name);
  return names.length > 0 ? { reason: 'hostPath volumes', detail: noun('volume', names) } : undefined;
};

const hostPorts: Check = (spec) => {
  const offending = containersOf(spec).filter((c) => (c.ports ?? []).some((port) => (port.hostPort ?? 0) !== 0));
  if (offending.length === 0) return undefined;
  const ports = unique(offending.flatMap((c) => (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0).map((p) => String(p.hostPort))));
  const names = offending.map((c) => c.name);
  const verb = names.length === 1 ? 'uses' : 'use';
  return { reason: 'hostPort', detail: `${noun('container', names)} ${verb} ${ports.length === 1 ? 'hostPort' : 'hostPorts'} ${ports.join(', ')}` };
};

const privileged: Check = (spec) => {
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.privileged === true)
    .map((c) => c.name);
  return names.length > 0 ? { reason: 'privileged', detail: `${noun('container', names)} must not set securityContext.privileged=true` } : undefined;
};

function addedCapabilities(spec: SpecLike, allowed: (capability: string) => boolean): Violation | undefined {
  const offending = containersOf(spec).filter((c) => (c.securityContext?.capabilities?.add ?? []).some((cap) => !allowed(cap)));
  if (offending.length === 0) return undefined;
  const caps = unique(offending.flatMap((c) => (c.securityContext?.capabilities?.add ?? []).filter((cap) => !allowed(cap))));
  return {
    reason: '',
    detail: `${noun(
      'container',
      offending.map((c) => c.name),
    )} must not include ${quoted(caps)} in securityContext.capabilities.add`,
  };
}

const capabilitiesBaseline: Check = (spec) => {
  const found = addedCapabilities(spec, (cap) => BASELINE_CAPABILITIES.has(cap));
  return found && { reason: 'non-default capabilities', detail: found.detail };
};

const UNCONFINED = 'Unconfined';

const seccompProfileBaseline: Check = (spec) => {
  const details: string[] = [];
  if (spec.securityContext?.seccompProfile?.type === UNCONFINED) details.push('pod must not set securityContext.seccompProfile.type to "Unconfined"');
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.seccompProfile?.type === UNCONFINED)
    .map((c) => c.name);
  if (names.length > 0) details.push(`${noun('container', names)} must not set securityContext.seccompProfile.type to "Unconfined"`);
  return details.length > 0 ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
};

const allowPrivilegeEscalation: Check = (spec) => {
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.allowPrivilegeEscalation !== false)
    .map((c) => c.name);
  return names.length > 0
    ? { reason: 'allowPrivilegeEscalation != false', detail: `${noun('container', names)} must set securityContext.allowPrivilegeEscalation=false` }
    : undefined;
};

const capabilitiesRestricted: Check = (spec) => {
  const details: string[] = [];
  const notDropping = containersOf(spec)
    .filter((c) => !(c.securityContext?.capabilities?.drop ?? []).includes('ALL'))
    .map((c) => c.name);
  if (notDropping.length > 0) details.push(`${noun('container', notDropping)} must set securityContext.capabilities.drop=["ALL"]`);
  const adding = addedCapabilities(spec, (cap) => cap === 'NET_BIND_SERVICE');
  if (adding) details.push(adding.detail);
  return details.length > 0 ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

const runAsNonRoot: Check = (spec) => {
  const details: string[] = [];
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue === false) details.push('pod must not set securityContext.runAsNonRoot=false');
  const containers = containersOf(spec);
  const settingFalse = containers.filter((c) => c.securityContext?.runAsNonRoot === false).map((c) => c.name);
  if (settingFalse.length > 0) details.push(`${noun('container', settingFalse)} must not set securityContext.runAsNonRoot=false`);
  if (podValue !== true) {
    const unset = containers.filter((c) => c.securityContext?.runAsNonRoot === undefined).map((c) => c.name);
    if (unset.length > 0) details.push(`pod or ${noun('container', unset)} must set securityContext.runAsNonRoot=true`);
  }
  return details.length > 0 ? { reason: 'runAsNonRoot != true', detail: details.join('; ') } : undefined;
};

const runAsUser: Check = (spec) => {
  const details: string[] = [];
  if (spec.securityContext?.runAsUser === 0) details.push('pod must not set runAsUser=0');
  const names = containersOf(spec)
    .filter((c) => c.securityContext?.runAsUser === 0)
    .map((c) => c.name);
  if (names.length > 0) details.push(`${noun('container', names)} must not set runAsUser=0`);
  return details.length > 0 ? { reason: 'runAsUser=0', detail: details.join('; ') } : undefined;
};

const ALLOWED_SECCOMP = new Set(['RuntimeDefault', 'Localhost']);

const seccompProfileRestricted: Check = (spec) => {
  const details: string[] = [];
  const podType = spec.securityContext?.seccompProfile?.type;
  if (podType !== undefined && !ALLOWED_SECCOMP.has(podType)) details.push(`pod must not set securityContext.seccompProfile.type to "${podType}"`);
  const containers = containersOf(spec);
  const bad = containers.filter((c) => {
    const type = c.securityContext?.seccompProfile?.type;
    return type !== undefined && !ALLOWED_SECCOMP.has(type);
  });
  for (const type of unique(bad.map((c) => c.securityContext!.seccompProfile!.type!))) {
    const names = bad.filter((c) => c.securityContext!.seccompProfile!.type === type).map((c) => c.name);
    details.push(`${noun('container', names)} must not set securityContext.seccompProfile.type to "${type}"`);
  }
  if (podType === undefined || !ALLOWED_SECCOMP.has(podType)) {
    const unset = containers.filter((c) => c.securityContext?.seccompProfile?.type === undefined).map((c) => c.name);
    if (unset.length > 0) details.push(`pod or ${noun('container', unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  }
  return details.length > 0 ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
};

/** Baseline checks by id; the restricted level drops those its own checks replace. */
const BASELINE: ReadonlyArray<[id: string, check: Check]> = [
  ['capabilities_baseline', capabilitiesBaseline],
  ['hostNamespaces', hostNamespaces],
  ['hostPathVolumes', hostPathVolumes],
  ['hostPorts', hostPorts],
  ['privileged', privileged],
  ['seccompProfile_baseline', seccompProfileBaseline],
];
const RESTRICTED: readonly Check[] = [allowPrivilegeEscalation, capabilitiesRestricted, runAsNonRoot, runAsUser, seccompProfileRestricted];
const REPLACED_BY_RESTRICTED = new Set(['capabilities_baseline', 'seccompProfile_baseline']);

const CHECKS: Record<Level, readonly Check[]> = {
  privileged: [],
  baseline: BASELINE.map(([, check]) => check),
  restricted: [...BASELINE.filter(([id]) => !REPLACED_BY_RESTRICTED.has(id)).map(([, check]) => check), ...RESTRICTED],
};

/** violations lists what `spec` breaks at `level`, in kube's order. */
export function violations(level: Level, spec: SpecLike): Violation[] {
  const found: Violation[] = [];
  for (const check of CHECKS[level]) {
    const violation = check(spec);
    if (violation) found.push(violation);
  }
  return found;
}

/** describe words violations as kube's messages do: `reason (detail), reason (detail)`. */
export function describe(found: readonly Violation[]): string {
  return found.map(({ reason, detail }) => `${reason} (${detail})`).join(', ');
}
