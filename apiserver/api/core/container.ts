/**
 * core/v1 Container and its parts: ports, environment, resources, volume mounts, probes.
 * Patch strategies follow k8s.io/api/core/v1 struct tags (ports by containerPort, env by
 * name, volumeMounts by mountPath, volumeDevices by devicePath).
 */
import { z } from 'zod';
import { QuantitySchema } from '../meta.js';
import { atomicStruct, keyDefault, mergeByKey } from '../patch-meta.js';
import { ProbeSchema } from './probe.js';
import { ResourceListSchema } from './quantity.js';
import { enumOf, K8S_CORE, looseObject } from './schema-helpers.js';

export const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;

export const ContainerPortSchema = z
  .object({
    name: z.string().optional().describe('IANA_SVC_NAME naming this port, unique within the pod; services may refer to it.'),
    hostPort: z.int32().optional().describe('Port to expose on the host as well. Rarely needed.'),
    containerPort: z.int32().describe('Port number the container listens on (1-65535).'),
    protocol: enumOf(PROTOCOLS).optional().meta(keyDefault('TCP')).describe('TCP, UDP or SCTP. Defaults to TCP.'),
    hostIP: z.string().optional().describe('Host IP to bind the host port to.'),
  })
  .meta({ id: `${K8S_CORE}.ContainerPort`, description: 'ContainerPort is a network port a container exposes.' });

const keyRef = (id: string, what: string) =>
  z
    .object({
      name: z.string().optional().describe(`Name of the ${what}.`),
      key: z.string().describe(`The key of the ${what} to select.`),
      optional: z.boolean().optional().describe(`Whether the ${what} or its key may be missing.`),
    })
    .meta({ id: `${K8S_CORE}.${id}`, description: `Selects one key of a ${what}.`, ...atomicStruct });

export const EnvVarSourceSchema = z
  .object({
    fieldRef: z
      .object({
        apiVersion: z.string().optional().describe('Version of the schema fieldPath is written in. Defaults to "v1".'),
        fieldPath: z.string().describe('Path of the pod field to select, e.g. metadata.name or status.podIP.'),
      })
      .meta({ id: `${K8S_CORE}.ObjectFieldSelector`, description: 'Selects a field of the pod.', ...atomicStruct })
      .optional(),
    resourceFieldRef: z
      .object({
        containerName: z.string().optional().describe('Container whose resources are read; required for volumes.'),
        resource: z.string().describe('Resource to select, e.g. limits.cpu or requests.memory.'),
        divisor: QuantitySchema.optional().describe('Output format of the exposed resources. Defaults to "1".'),
      })
      .meta({ id: `${K8S_CORE}.ResourceFieldSelector`, description: 'Selects a resource request or limit of a container.', ...atomicStruct })
      .optional(),
    configMapKeyRef: keyRef('ConfigMapKeySelector', 'ConfigMap').optional(),
    secretKeyRef: keyRef('SecretKeySelector', 'Secret').optional(),
  })
  .meta({ id: `${K8S_CORE}.EnvVarSource`, description: "EnvVarSource says where an environment variable's value comes from." });

export const EnvVarSchema = z
  .object({
    name: z.string().describe('Name of the environment variable.'),
    value: z.string().optional().describe('Literal value; $(VAR) references to earlier variables are expanded.'),
    valueFrom: EnvVarSourceSchema.optional().describe('Source of the value; cannot be used together with value.'),
  })
  .meta({ id: `${K8S_CORE}.EnvVar`, description: 'EnvVar is one environment variable of a container.' });

const namedRef = (id: string, what: string) =>
  z
    .object({
      name: z.string().optional().describe(`Name of the ${what}.`),
      optional: z.boolean().optional().describe(`Whether the ${what} may be missing.`),
    })
    .meta({ id: `${K8S_CORE}.${id}`, description: `Selects a whole ${what}.` });

export const EnvFromSourceSchema = z
  .object({
    prefix: z.string().optional().describe('Prefix added to every key to form the variable name.'),
    configMapRef: namedRef('ConfigMapEnvSource', 'ConfigMap').optional(),
    secretRef: namedRef('SecretEnvSource', 'Secret').optional(),
  })
  .meta({ id: `${K8S_CORE}.EnvFromSource`, description: 'EnvFromSource imports every key of a ConfigMap or Secret as variables.' });

export const ResourceRequirementsSchema = z
  .object({
    limits: ResourceListSchema.optional().describe('Maximum amount of compute resources allowed.'),
    requests: ResourceListSchema.optional().describe(
      'Minimum amount of compute resources required; the scheduler places pods by requests. Defaults to limits when omitted.',
    ),
    claims: z
      .array(z.object({ name: z.string(), request: z.string().optional() }).meta({ id: `${K8S_CORE}.ResourceClaim` }))
      .optional()
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] })
      .describe('Dynamic resource claims used by this container.'),
  })
  .meta({ id: `${K8S_CORE}.ResourceRequirements`, description: 'ResourceRequirements are the compute resource requests and limits.' });

export type ResourceRequirements = z.infer<typeof ResourceRequirementsSchema>;

export const VolumeMountSchema = z
  .object({
    name: z.string().describe('Name of the pod volume to mount.'),
    readOnly: z.boolean().optional().describe('Mount read-only when true.'),
    mountPath: z.string().describe('Path inside the container where the volume is mounted.'),
    subPath: z.string().optional().describe('Path within the volume to mount instead of its root.'),
    subPathExpr: z.string().optional().describe('Like subPath, with $(VAR) expansion from the container environment.'),
    mountPropagation: z.string().optional().describe('How mounts propagate between host and container.'),
    recursiveReadOnly: z.string().optional().describe('Whether read-only mounts are read-only recursively.'),
  })
  .meta({ id: `${K8S_CORE}.VolumeMount`, description: 'VolumeMount mounts a pod volume into a container.' });

const containerFields = {
  name: z.string().describe('Name of the container, a DNS label unique within the pod. Cannot be updated.'),
  image: z.string().optional().describe('Container image name.'),
  command: z.array(z.string()).optional().describe('Entrypoint array; the image ENTRYPOINT is used when empty.'),
  args: z.array(z.string()).optional().describe('Arguments to the entrypoint; the image CMD is used when empty.'),
  workingDir: z.string().optional().describe('Working directory; the image default when empty.'),
  ports: z
    .array(ContainerPortSchema)
    .optional()
    .meta({ ...mergeByKey('containerPort'), 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'] })
    .describe('Ports the container exposes. Informational; any port the process listens on is reachable.'),
  envFrom: z.array(EnvFromSourceSchema).optional().describe('Sources whose keys all become environment variables.'),
  env: z.array(EnvVarSchema).optional().meta(mergeByKey('name')).describe('Environment variables to set in the container.'),
  resources: ResourceRequirementsSchema.optional().describe('Compute resources required by this container.'),
  restartPolicy: z.string().optional().describe('Only "Always", for init containers that keep running as sidecars.'),
  volumeMounts: z.array(VolumeMountSchema).optional().meta(mergeByKey('mountPath')).describe('Pod volumes to mount.'),
  volumeDevices: z
    .array(z.object({ name: z.string(), devicePath: z.string() }).meta({ id: `${K8S_CORE}.VolumeDevice` }))
    .optional()
    .meta(mergeByKey('devicePath'))
    .describe('Block devices to expose to the container.'),
  livenessProbe: ProbeSchema.optional().describe('Periodic check of liveness; the container is restarted when it fails.'),
  readinessProbe: ProbeSchema.optional().describe('Periodic check of readiness; failing containers get no service traffic.'),
  startupProbe: ProbeSchema.optional().describe('Check that must succeed before the other probes start.'),
  lifecycle: looseObject(`${K8S_CORE}.Lifecycle`, 'Actions run after the container starts and before it stops.').optional(),
  terminationMessagePath: z.string().optional().describe('File whose contents become the termination message. Defaults to /dev/termination-log.'),
  terminationMessagePolicy: enumOf(['File', 'FallbackToLogsOnError']).optional().describe('How the termination message is read. Defaults to File.'),
  imagePullPolicy: enumOf(['Always', 'Never', 'IfNotPresent'])
    .optional()
    .describe('Always, Never or IfNotPresent. Defaults to Always for :latest or untagged images, otherwise IfNotPresent.'),
  securityContext: looseObject(`${K8S_CORE}.SecurityContext`, 'Security options of the container.').optional(),
  stdin: z.boolean().optional().describe('Allocate a buffer for stdin.'),
  stdinOnce: z.boolean().optional().describe('Close stdin after the first attach disconnects.'),
  tty: z.boolean().optional().describe('Allocate a TTY; requires stdin.'),
};

export const ContainerSchema = z
  .object(containerFields)
  .meta({ id: `${K8S_CORE}.Container`, description: 'A single application container that runs within a pod.' });

export type Container = z.infer<typeof ContainerSchema>;

export const EphemeralContainerSchema = z
  .object({
    ...containerFields,
    targetContainerName: z.string().optional().describe('Container whose process namespace the debug container joins.'),
  })
  .meta({ id: `${K8S_CORE}.EphemeralContainer`, description: 'A temporary container added to a running pod, e.g. for debugging.' });

export type EphemeralContainer = z.infer<typeof EphemeralContainerSchema>;
