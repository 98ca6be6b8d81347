/**
 * The baseline Pod Security Standards checks of kube 1.33 (pod-security-admission's
 * policy/check_*.go): each names the fields it restricts and words its refusal as kube does.
 * Versions: a check changes from a minor on (`since`); a namespace pinned to an older
 * `*-version` gets the older behaviour.
 */
import {
  type Check,
  type CheckPod,
  type ContainerLike,
  containersNoun,
  goQuote,
  joinQuote,
  pluralize,
  type SecurityContextLike,
  type SpecLike,
  settersOf,
  sortedSet,
} from './pod-security-check-kit.js';

/** The capabilities baseline lets containers add (the container runtimes' default set). */
const DEFAULT_CAPABILITIES = new Set([
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

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** Profile types allowed wherever a seccomp or AppArmor type is set. */
export const isConfinedType = (type: string | undefined) => type === 'RuntimeDefault' || type === 'Localhost';

/** badProfileTypes: who set a seccomp or AppArmor profile type other than RuntimeDefault or
 * Localhost (the pod, then containers), and which types, sorted. */
export function badProfileTypes(
  spec: SpecLike,
  allContainers: readonly ContainerLike[],
  profileOf: (context: SecurityContextLike | undefined) => { type?: string } | undefined,
) {
  const values: string[] = [];
  const podProfile = profileOf(spec.securityContext);
  const podIsBad = podProfile !== undefined && !isConfinedType(podProfile.type);
  if (podIsBad) values.push(podProfile.type ?? '');
  const containers: string[] = [];
  for (const c of allContainers) {
    const profile = profileOf(c.securityContext);
    if (profile === undefined || isConfinedType(profile.type)) continue;
    containers.push(c.name);
    values.push(profile.type ?? '');
  }
  return { setters: settersOf(podIsBad, containers), values: sortedSet(values) };
}

const appArmorProfile: CheckPod = ({ annotations, spec, allContainers }) => {
  const { setters, values } = badProfileTypes(spec, allContainers, (context) => context?.appArmorProfile);
  const annotated = Object.entries(annotations)
    .filter(([key, value]) => key.startsWith(APPARMOR_ANNOTATION_PREFIX) && !(value === '' || value === 'runtime/default' || value.startsWith('localhost/')))
    .map(([key, value]) => `${key}=${goQuote(value)}`)
    .sort();
  if (annotated.length > 0) setters.push(pluralize('annotation', 'annotations', annotated.length));
  if (setters.length === 0) return undefined;
  const listed = [...values, ...annotated];
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', listed.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(listed)}`,
  };
};

const capabilitiesBaseline: CheckPod = ({ allContainers }) => {
  const containers: string[] = [];
  const added: string[] = [];
  for (const c of allContainers) {
    const forbidden = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !DEFAULT_CAPABILITIES.has(cap));
    if (forbidden.length === 0) continue;
    containers.push(c.name);
    added.push(...forbidden);
  }
  if (containers.length === 0) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersNoun(containers)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
  };
};

const hostNamespaces: CheckPod = ({ spec }) => {
  const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((field) => spec[field] === true).map((field) => `${field}=true`);
  return set.length > 0 ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
};

const hostPathVolumes: CheckPod = ({ spec }) => {
  const names = (spec.volumes ?? []).filter((volume) => volume['hostPath'] != null).map((volume) => volume.name);
  return names.length > 0 ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` } : undefined;
};

const hostPorts: CheckPod = ({ allContainers }) => {
  const containers: string[] = [];
  const ports: string[] = [];
  for (const c of allContainers) {
    const used = (c.ports ?? []).filter((port) => (port.hostPort ?? 0) !== 0).map((port) => String(port.hostPort));
    if (used.length === 0) continue;
    containers.push(c.name);
    ports.push(...used);
  }
  if (containers.length === 0) return undefined;
  const distinct = sortedSet(ports);
  const verb = pluralize('uses', 'use', containers.length);
  return { reason: 'hostPort', detail: `${containersNoun(containers)} ${verb} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}` };
};

const privileged: CheckPod = ({ allContainers }) => {
  const names = allContainers.filter((c) => c.securityContext?.privileged === true).map((c) => c.name);
  return names.length > 0 ? { reason: 'privileged', detail: `${containersNoun(names)} must not set securityContext.privileged=true` } : undefined;
};

const procMount: CheckPod = ({ allContainers }) => {
  const containers: string[] = [];
  const types: string[] = [];
  for (const c of allContainers) {
    const type = c.securityContext?.procMount;
    if (type === undefined || type === null || type === 'Default') continue;
    containers.push(c.name);
    types.push(type);
  }
  if (containers.length === 0) return undefined;
  return { reason: 'procMount', detail: `${containersNoun(containers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
};

const SELINUX_TYPES_1_0 = ['', 'container_t', 'container_init_t', 'container_kvm_t'];
const SELINUX_TYPES_1_31 = [...SELINUX_TYPES_1_0, 'container_engine_t'];

function seLinuxOptions(allowedTypes: readonly string[]): CheckPod {
  const allowed = new Set(allowedTypes);
  return ({ spec, allContainers }) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const isBad = (context: SecurityContextLike | undefined): boolean => {
      const options = context?.seLinuxOptions;
      if (!options) return false;
      const type = options.type ?? '';
      const badType = !allowed.has(type);
      if (badType) badTypes.push(type);
      setUser ||= (options.user ?? '') !== '';
      setRole ||= (options.role ?? '') !== '';
      return badType || (options.user ?? '') !== '' || (options.role ?? '') !== '';
    };
    const podIsBad = isBad(spec.securityContext);
    const setters = settersOf(
      podIsBad,
      allContainers.filter((c) => isBad(c.securityContext)).map((c) => c.name),
    );
    if (setters.length === 0) return undefined;
    const what: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length > 0) what.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) what.push('user may not be set');
    if (setRole) what.push('role may not be set');
    return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${what.join('; ')}` };
  };
}

/** Before 1.19, seccomp was set by annotations; their allowed values. */
const allowedSeccompAnnotation = (value: string) => value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');

const seccompProfileBaseline_1_0: CheckPod = ({ annotations, allContainers }) => {
  const forbidden: string[] = [];
  const podValue = annotations[SECCOMP_POD_ANNOTATION];
  if (podValue !== undefined && !allowedSeccompAnnotation(podValue)) forbidden.push(`${SECCOMP_POD_ANNOTATION}=${goQuote(podValue)}`);
  for (const c of allContainers) {
    const key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + c.name;
    const value = annotations[key];
    if (value !== undefined && !allowedSeccompAnnotation(value)) forbidden.push(`${key}=${goQuote(value)}`);
  }
  if (forbidden.length === 0) return undefined;
  const listed = sortedSet(forbidden);
  return { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', listed.length)} ${listed.join(', ')}` };
};

export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';
export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';
export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

const seccompProfileBaseline_1_19: CheckPod = ({ spec, allContainers }) => {
  const { setters, values } = badProfileTypes(spec, allContainers, (context) => context?.seccompProfile);
  if (setters.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}` };
};

/** The "safe" sysctls, growing with the versions. */
const SYSCTLS_1_0 = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [
  ...SYSCTLS_1_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(safe: readonly string[]): CheckPod {
  const allowed = new Set(safe);
  return ({ spec }) => {
    const forbidden = (spec.securityContext?.sysctls ?? []).map((sysctl) => sysctl.name).filter((name) => !allowed.has(name));
    return forbidden.length > 0 ? { reason: 'forbidden sysctls', detail: forbidden.join(', ') } : undefined;
  };
}

const windowsHostProcess: CheckPod = ({ spec, allContainers }) => {
  const setters = settersOf(
    spec.securityContext?.windowsOptions?.hostProcess === true,
    allContainers.filter((c) => c.securityContext?.windowsOptions?.hostProcess === true).map((c) => c.name),
  );
  if (setters.length === 0) return undefined;
  return { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
};

const since = (minor: number, check: CheckPod) => ({ since: minor, check });

export const BASELINE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [since(0, appArmorProfile)] },
  { id: CAPABILITIES_BASELINE_ID, level: 'baseline', versions: [since(0, capabilitiesBaseline)] },
  { id: 'hostNamespaces', level: 'baseline', versions: [since(0, hostNamespaces)] },
  { id: HOST_PATH_VOLUMES_ID, level: 'baseline', versions: [since(0, hostPathVolumes)] },
  { id: 'hostPorts', level: 'baseline', versions: [since(0, hostPorts)] },
  { id: 'privileged', level: 'baseline', versions: [since(0, privileged)] },
  { id: 'procMount', level: 'baseline', versions: [since(0, procMount)] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [since(0, seLinuxOptions(SELINUX_TYPES_1_0)), since(31, seLinuxOptions(SELINUX_TYPES_1_31))] },
  { id: SECCOMP_BASELINE_ID, level: 'baseline', versions: [since(0, seccompProfileBaseline_1_0), since(19, seccompProfileBaseline_1_19)] },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [since(0, sysctls(SYSCTLS_1_0)), since(27, sysctls(SYSCTLS_1_27)), since(29, sysctls(SYSCTLS_1_29)), since(32, sysctls(SYSCTLS_1_32))],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [since(0, windowsHostProcess)] },
];
