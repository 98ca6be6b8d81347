/**
 * Every Pod Security Standards check of kube 1.33, table-driven: for each check a pod that
 * passes and pods that fail, at the level (and version) where the check applies, with kube's
 * exact forbidden reason and detail (pod-security-admission's policy/check_*.go wording).
 */
import { expect, describe as group, it } from 'vitest';
import type { ContainerLike, Level, PodLike, SecurityContextLike, SpecLike } from './pod-security-check-kit.js';
import { describe, evaluate, NEWEST_CHECK_MINOR, reasons } from './pod-security-checks.js';
import { LATEST } from './pod-security-policy.js';

const container = (name: string, securityContext?: SecurityContextLike, extra: Partial<ContainerLike> = {}): ContainerLike => ({
  name,
  ...(securityContext ? { securityContext } : {}),
  ...extra,
});

/** A container restricted admits: every restricted check's field set as required. */
const hardened = (name = 'c', securityContext: SecurityContextLike = {}, extra: Partial<ContainerLike> = {}): ContainerLike =>
  container(
    name,
    { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, ...securityContext },
    extra,
  );

const pod = (spec: SpecLike, annotations: Record<string, string> = {}): PodLike => ({ annotations, spec });
const plain = (spec: Partial<SpecLike> = {}, annotations?: Record<string, string>) => pod({ containers: [container('c')], ...spec }, annotations);
const strict = (spec: Partial<SpecLike> = {}, annotations?: Record<string, string>) => pod({ containers: [hardened()], ...spec }, annotations);

interface Case {
  name: string;
  level: Level;
  /** v1.<minor>; latest when absent. */
  minor?: number;
  pod: PodLike;
  /** The aggregated message (kube's ForbiddenDetail); undefined: the pod passes. */
  message: string | undefined;
}

const AA = 'container.apparmor.security.beta.kubernetes.io/';

const baselineCases: Case[] = [
  // appArmorProfile
  {
    name: 'AppArmor RuntimeDefault, Localhost and allowed annotations pass',
    level: 'baseline',
    pod: plain(
      { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [container('c', { appArmorProfile: { type: 'Localhost' } })] },
      { [`${AA}c`]: 'localhost/mine', [`${AA}d`]: 'runtime/default', [`${AA}e`]: '' },
    ),
    message: undefined,
  },
  {
    name: 'AppArmor Unconfined on a container',
    level: 'baseline',
    pod: plain({ containers: [container('c', { appArmorProfile: { type: 'Unconfined' } })] }),
    message: 'forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined")',
  },
  {
    name: 'AppArmor Unconfined on the pod and a container, and an unconfined annotation',
    level: 'baseline',
    pod: plain(
      { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [container('c', { appArmorProfile: { type: 'Unconfined' } })] },
      { [`${AA}c`]: 'unconfined' },
    ),
    message: `forbidden AppArmor profiles (pod and container "c" and annotation must not set AppArmor profile type to "Unconfined", "${AA}c="unconfined"")`,
  },
  // capabilities_baseline
  {
    name: 'default capabilities pass',
    level: 'baseline',
    pod: plain({ containers: [container('c', { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE'] } })] }),
    message: undefined,
  },
  {
    name: 'non-default capabilities, sorted and deduplicated',
    level: 'baseline',
    pod: plain({
      containers: [container('a', { capabilities: { add: ['SYS_ADMIN', 'NET_RAW', 'CHOWN'] } }), container('b', { capabilities: { add: ['SYS_ADMIN'] } })],
    }),
    message: 'non-default capabilities (containers "a", "b" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)',
  },
  // hostNamespaces
  { name: 'host namespaces false pass', level: 'baseline', pod: plain({ hostNetwork: false, hostPID: false, hostIPC: false }), message: undefined },
  { name: 'host namespaces', level: 'baseline', pod: plain({ hostNetwork: true, hostIPC: true }), message: 'host namespaces (hostNetwork=true, hostIPC=true)' },
  // hostPathVolumes
  { name: 'emptyDir passes baseline', level: 'baseline', pod: plain({ volumes: [{ name: 'e', emptyDir: {} }] }), message: undefined },
  {
    name: 'hostPath volumes',
    level: 'baseline',
    pod: plain({
      volumes: [
        { name: 'h1', hostPath: { path: '/' } },
        { name: 'n', nfs: {} },
        { name: 'h2', hostPath: { path: '/etc' } },
      ],
    }),
    message: 'hostPath volumes (volumes "h1", "h2")',
  },
  // hostPorts
  {
    name: 'container ports without hostPort pass',
    level: 'baseline',
    pod: plain({ containers: [container('c', undefined, { ports: [{ hostPort: 0 }, {}] })] }),
    message: undefined,
  },
  {
    name: 'one hostPort',
    level: 'baseline',
    pod: plain({ containers: [container('a', undefined, { ports: [{ hostPort: 80 }] })] }),
    message: 'hostPort (container "a" uses hostPort 80)',
  },
  {
    name: 'hostPorts of two containers',
    level: 'baseline',
    pod: plain({
      containers: [container('a', undefined, { ports: [{ hostPort: 8080 }, { hostPort: 80 }] }), container('b', undefined, { ports: [{ hostPort: 80 }] })],
    }),
    message: 'hostPort (containers "a", "b" use hostPorts 80, 8080)',
  },
  // privileged
  { name: 'privileged=false passes', level: 'baseline', pod: plain({ containers: [container('c', { privileged: false })] }), message: undefined },
  {
    name: 'privileged init and ephemeral containers',
    level: 'baseline',
    pod: plain({ initContainers: [container('i', { privileged: true })], ephemeralContainers: [container('e', { privileged: true })] }),
    message: 'privileged (containers "i", "e" must not set securityContext.privileged=true)',
  },
  // procMount
  { name: 'procMount Default passes', level: 'baseline', pod: plain({ containers: [container('c', { procMount: 'Default' })] }), message: undefined },
  {
    name: 'procMount Unmasked',
    level: 'baseline',
    pod: plain({ containers: [container('c', { procMount: 'Unmasked' })] }),
    message: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
  },
  // seLinuxOptions
  {
    name: 'SELinux container types and levels pass',
    level: 'baseline',
    pod: plain({
      securityContext: { seLinuxOptions: { type: 'container_t' } },
      containers: [container('c', { seLinuxOptions: { type: 'container_init_t' } })],
    }),
    message: undefined,
  },
  {
    name: 'SELinux type, user and role',
    level: 'baseline',
    pod: plain({ securityContext: { seLinuxOptions: { type: 'spc_t' } }, containers: [container('c', { seLinuxOptions: { user: 'u', role: 'r' } })] }),
    message: 'seLinuxOptions (pod and container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set)',
  },
  {
    name: 'container_engine_t is allowed from v1.31',
    level: 'baseline',
    pod: plain({ containers: [container('c', { seLinuxOptions: { type: 'container_engine_t' } })] }),
    message: undefined,
  },
  {
    name: 'container_engine_t is refused at v1.30',
    level: 'baseline',
    minor: 30,
    pod: plain({ containers: [container('c', { seLinuxOptions: { type: 'container_engine_t' } })] }),
    message: 'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
  },
  // seccompProfile_baseline
  {
    name: 'seccomp RuntimeDefault and Localhost pass',
    level: 'baseline',
    pod: plain({ securityContext: { seccompProfile: { type: 'Localhost' } } }),
    message: undefined,
  },
  {
    name: 'seccomp Unconfined on the pod and a container',
    level: 'baseline',
    pod: plain({ securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [container('c', { seccompProfile: { type: 'Unconfined' } })] }),
    message: 'seccompProfile (pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
  },
  {
    name: 'seccomp annotations are only read before v1.19',
    level: 'baseline',
    pod: plain({}, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }),
    message: undefined,
  },
  {
    name: 'seccomp annotations at v1.18',
    level: 'baseline',
    minor: 18,
    pod: plain({}, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/c': 'docker/default' }),
    message: 'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
  },
  // sysctls
  {
    name: 'safe sysctls pass',
    level: 'baseline',
    pod: plain({ securityContext: { sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start' }, { name: 'net.ipv4.tcp_rmem' }] } }),
    message: undefined,
  },
  {
    name: 'unsafe sysctls, in the pod’s order',
    level: 'baseline',
    pod: plain({ securityContext: { sysctls: [{ name: 'vm.overcommit_memory' }, { name: 'kernel.msgmax' }] } }),
    message: 'forbidden sysctls (vm.overcommit_memory, kernel.msgmax)',
  },
  {
    name: 'net.ipv4.tcp_rmem is safe only from v1.32',
    level: 'baseline',
    minor: 31,
    pod: plain({ securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }, { name: 'net.ipv4.tcp_keepalive_time' }] } }),
    message: 'forbidden sysctls (net.ipv4.tcp_rmem)',
  },
  {
    name: 'net.ipv4.ip_local_reserved_ports is safe only from v1.27',
    level: 'baseline',
    minor: 26,
    pod: plain({ securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] } }),
    message: 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)',
  },
  // windowsHostProcess
  { name: 'hostProcess=false passes', level: 'baseline', pod: plain({ securityContext: { windowsOptions: { hostProcess: false } } }), message: undefined },
  {
    name: 'hostProcess on the pod and a container',
    level: 'baseline',
    pod: plain({ securityContext: { windowsOptions: { hostProcess: true } }, containers: [container('c', { windowsOptions: { hostProcess: true } })] }),
    message: 'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
  },
];

const restrictedCases: Case[] = [
  { name: 'a hardened pod passes', level: 'restricted', pod: strict(), message: undefined },
  // allowPrivilegeEscalation
  {
    name: 'allowPrivilegeEscalation unset',
    level: 'restricted',
    pod: strict({ containers: [hardened('c', { allowPrivilegeEscalation: undefined })] }),
    message: 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)',
  },
  {
    name: 'a Windows pod needs no allowPrivilegeEscalation, capabilities or seccomp from v1.25',
    level: 'restricted',
    pod: strict({ os: { name: 'windows' }, containers: [container('c', { runAsNonRoot: true })] }),
    message: undefined,
  },
  {
    name: 'a Windows pod at v1.24 still does',
    level: 'restricted',
    minor: 24,
    pod: strict({
      os: { name: 'windows' },
      containers: [container('c', { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, capabilities: { drop: ['ALL'] } })],
    }),
    message: 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)',
  },
  // capabilities_restricted
  {
    name: 'drop ALL, add NET_BIND_SERVICE passes',
    level: 'restricted',
    pod: strict({ containers: [hardened('c', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })] }),
    message: undefined,
  },
  {
    name: 'capabilities not dropped and one added',
    level: 'restricted',
    pod: strict({ containers: [hardened('c', { capabilities: { add: ['SYS_TIME', 'CHOWN'] } })] }),
    message:
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN", "SYS_TIME" in securityContext.capabilities.add)',
  },
  {
    name: 'before v1.22 restricted checks only the baseline capabilities',
    level: 'restricted',
    minor: 21,
    pod: strict({ containers: [hardened('c', { capabilities: { add: ['SYS_TIME', 'CHOWN'] } })] }),
    message: 'non-default capabilities (container "c" must not include "SYS_TIME" in securityContext.capabilities.add)',
  },
  // restrictedVolumes
  {
    name: 'the allowed volume sources pass',
    level: 'restricted',
    pod: strict({
      volumes: ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'].map((source) => ({
        name: source,
        [source]: {},
      })),
    }),
    message: undefined,
  },
  {
    name: 'restricted volume types replace the hostPath check',
    level: 'restricted',
    pod: strict({
      volumes: [
        { name: 'h', hostPath: { path: '/' } },
        { name: 'n', nfs: { server: 's', path: '/' } },
        { name: 'g', gitRepo: {} },
      ],
    }),
    message: 'restricted volume types (volumes "h", "n", "g" use restricted volume types "gitRepo", "hostPath", "nfs")',
  },
  {
    name: 'one restricted volume',
    level: 'restricted',
    pod: strict({ volumes: [{ name: 'n', nfs: {} }] }),
    message: 'restricted volume types (volume "n" uses restricted volume type "nfs")',
  },
  // runAsNonRoot
  {
    name: 'runAsNonRoot on the pod covers its containers',
    level: 'restricted',
    pod: strict({ securityContext: { runAsNonRoot: true }, containers: [hardened('c', { runAsNonRoot: undefined })] }),
    message: undefined,
  },
  {
    name: 'runAsNonRoot unset',
    level: 'restricted',
    pod: strict({ containers: [hardened('a', { runAsNonRoot: undefined }), hardened('b', { runAsNonRoot: undefined })] }),
    message: 'runAsNonRoot != true (pod or containers "a", "b" must set securityContext.runAsNonRoot=true)',
  },
  {
    name: 'runAsNonRoot=false on the pod and a container',
    level: 'restricted',
    pod: strict({ securityContext: { runAsNonRoot: false }, containers: [hardened('c', { runAsNonRoot: false }), hardened('d', { runAsNonRoot: undefined })] }),
    message: 'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)',
  },
  // runAsUser
  { name: 'a non-zero runAsUser passes', level: 'restricted', pod: strict({ securityContext: { runAsUser: 1000 } }), message: undefined },
  {
    name: 'runAsUser=0 on the pod and a container',
    level: 'restricted',
    pod: strict({ securityContext: { runAsUser: 0 }, containers: [hardened('c', { runAsUser: 0 })] }),
    message: 'runAsUser=0 (pod and container "c" must not set runAsUser=0)',
  },
  { name: 'runAsUser=0 is allowed before v1.23', level: 'restricted', minor: 22, pod: strict({ securityContext: { runAsUser: 0 } }), message: undefined },
  // seccompProfile_restricted
  {
    name: 'a pod-level seccomp profile covers its containers',
    level: 'restricted',
    pod: strict({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [hardened('c', { seccompProfile: undefined })] }),
    message: undefined,
  },
  {
    name: 'seccomp unset',
    level: 'restricted',
    pod: strict({ containers: [hardened('c', { seccompProfile: undefined })] }),
    message: 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  },
  {
    name: 'seccomp Unconfined on a container',
    level: 'restricted',
    pod: strict({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [hardened('c', { seccompProfile: { type: 'Unconfined' } })] }),
    message: 'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
  },
  {
    name: 'before v1.19 restricted reads the seccomp annotations instead',
    level: 'restricted',
    minor: 18,
    pod: strict({ containers: [hardened('c', { seccompProfile: undefined })] }, { 'container.seccomp.security.alpha.kubernetes.io/c': 'unconfined' }),
    message: 'seccompProfile (forbidden annotation container.seccomp.security.alpha.kubernetes.io/c="unconfined")',
  },
  // Baseline checks still apply at restricted.
  {
    name: 'restricted includes the baseline checks',
    level: 'restricted',
    pod: strict({ hostPID: true, securityContext: { sysctls: [{ name: 'kernel.msgmax' }] } }),
    message: 'host namespaces (hostPID=true), forbidden sysctls (kernel.msgmax)',
  },
];

group('Pod Security Standards checks', () => {
  it.each([...baselineCases, ...restrictedCases])('$level: $name', ({ level, minor, pod, message }) => {
    const found = evaluate(level, minor ?? LATEST, pod);
    expect(found.length === 0 ? undefined : describe(found)).toBe(message);
  });

  it('privileged checks nothing', () => {
    expect(evaluate('privileged', LATEST, plain({ hostNetwork: true, containers: [container('c', { privileged: true })] }))).toEqual([]);
  });

  it('baseline leaves the restricted-only fields alone', () => {
    expect(evaluate('baseline', LATEST, plain({ volumes: [{ name: 'n', nfs: {} }], securityContext: { runAsUser: 0 } }))).toEqual([]);
  });

  it('orders reasons as kube does: baseline check ids sorted, then restricted ones', () => {
    const everything = pod({
      hostNetwork: true,
      securityContext: { seLinuxOptions: { type: 'spc_t' }, seccompProfile: { type: 'Unconfined' }, sysctls: [{ name: 'kernel.msgmax' }] },
      volumes: [{ name: 'h', hostPath: { path: '/' } }],
      containers: [
        container(
          'c',
          { privileged: true, procMount: 'Unmasked', appArmorProfile: { type: 'Unconfined' }, capabilities: { add: ['SYS_ADMIN'] } },
          { ports: [{ hostPort: 1 }] },
        ),
      ],
    });
    expect(reasons(evaluate('baseline', LATEST, everything))).toBe(
      'forbidden AppArmor profile, non-default capabilities, host namespaces, hostPath volumes, hostPort, privileged, procMount, seLinuxOptions, seccompProfile, forbidden sysctls',
    );
    expect(reasons(evaluate('restricted', LATEST, everything))).toBe(
      'forbidden AppArmor profile, host namespaces, hostPort, privileged, procMount, seLinuxOptions, forbidden sysctls, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile',
    );
  });

  it('evaluates a version newer than the newest check change as the newest', () => {
    const tcpRmem = plain({ securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] } });
    expect(NEWEST_CHECK_MINOR).toBe(32);
    expect(evaluate('baseline', 40, tcpRmem)).toEqual([]);
  });
});
