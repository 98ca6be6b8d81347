/**
 * Validation of one container, worded as Kubernetes' validateContainers so that a bad
 * manifest gets the same `spec.containers[0].image: Required value` a real cluster returns.
 */

import { tryParseQuantity } from '../quantity.js';
import type { FieldError } from '../resource-definition.js';
import { invalid, isDns1123Label, isValidPortName, isValidPortNum, required } from '../validation.js';
import type { Container, EphemeralContainer } from './container.js';
import type { Probe } from './probe.js';
import { validateQuantities } from './quantity.js';

/** ContainerContext is what a container's validation needs from its pod. */
export interface ContainerContext {
  /** Names of the pod's volumes; volume mounts must refer to one of them. */
  volumeNames: ReadonlySet<string>;
  /** Init containers may not have liveness/readiness/startup probes unless they are sidecars. */
  isInit: boolean;
}

/** validateContainer checks one container at `field` (e.g. spec.containers[0]). Pure. Name
 * uniqueness across the pod is the caller's job. */
export function validateContainer(container: Container | EphemeralContainer, field: string, context: ContainerContext): FieldError[] {
  const errors: FieldError[] = [];
  if (!container.name) errors.push(required(`${field}.name`));
  else errors.push(...isDns1123Label(container.name).map((d) => invalid(`${field}.name`, container.name, d)));
  if (!container.image?.trim()) errors.push(required(`${field}.image`));
  errors.push(...validatePorts(container, `${field}.ports`));
  errors.push(...validateEnv(container, `${field}.env`));
  errors.push(...validateVolumeMounts(container, `${field}.volumeMounts`, context.volumeNames));
  errors.push(...validateResources(container, `${field}.resources`));
  errors.push(...validateProbes(container, field, context.isInit && container.restartPolicy !== 'Always'));
  return errors;
}

function validatePorts(container: Container, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  (container.ports ?? []).forEach((port, i) => {
    const at = `${field}[${i}]`;
    errors.push(...isValidPortNum(port.containerPort).map((d) => invalid(`${at}.containerPort`, port.containerPort, d)));
    if (port.hostPort) errors.push(...isValidPortNum(port.hostPort).map((d) => invalid(`${at}.hostPort`, port.hostPort, d)));
    if (port.name) {
      errors.push(...isValidPortName(port.name).map((d) => invalid(`${at}.name`, port.name, d)));
      if (names.has(port.name)) errors.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: port.name });
      names.add(port.name);
    }
  });
  return errors;
}

function validateEnv(container: Container, field: string): FieldError[] {
  const errors: FieldError[] = [];
  (container.env ?? []).forEach((env, i) => {
    const at = `${field}[${i}]`;
    if (!env.name) errors.push(required(`${at}.name`));
    else if (env.name.includes('=')) errors.push(invalid(`${at}.name`, env.name, "must not contain '='"));
    if (!env.valueFrom) return;
    const sources = Object.values(env.valueFrom).filter((source) => source !== undefined).length;
    if (sources === 0) errors.push(invalid(`${at}.valueFrom`, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    if (sources > 1) errors.push(invalid(`${at}.valueFrom`, '', 'may not have more than one field specified at a time'));
    if (env.value) errors.push(invalid(`${at}.valueFrom`, '', 'may not be specified when `value` is not empty'));
  });
  return errors;
}

function validateVolumeMounts(container: Container, field: string, volumeNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const paths = new Set<string>();
  (container.volumeMounts ?? []).forEach((mount, i) => {
    const at = `${field}[${i}]`;
    if (!mount.name) errors.push(required(`${at}.name`));
    else if (!volumeNames.has(mount.name)) errors.push(invalid(`${at}.name`, mount.name, 'not found: must match the name of a volume'));
    if (!mount.mountPath) errors.push(required(`${at}.mountPath`));
    else if (paths.has(mount.mountPath)) errors.push(invalid(`${at}.mountPath`, mount.mountPath, 'must be unique'));
    paths.add(mount.mountPath);
  });
  return errors;
}

function validateResources(container: Container, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const { requests = {}, limits = {} } = container.resources ?? {};
  errors.push(...validateQuantities(requests, `${field}.requests`), ...validateQuantities(limits, `${field}.limits`));
  for (const [name, request] of Object.entries(requests)) {
    const limit = tryParseQuantity(limits[name] ?? '');
    const requested = tryParseQuantity(request);
    if (limit && requested && requested.cmp(limit) > 0) {
      errors.push(invalid(`${field}.requests[${name}]`, request, `must be less than or equal to ${name} limit of ${limits[name]}`));
    }
  }
  return errors;
}

function validateProbes(container: Container, field: string, isPlainInit: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const probes = { livenessProbe: container.livenessProbe, readinessProbe: container.readinessProbe, startupProbe: container.startupProbe };
  for (const [name, probe] of Object.entries(probes)) {
    if (!probe) continue;
    if (isPlainInit) {
      errors.push({ type: 'FieldValueForbidden', field: `${field}.${name}`, detail: `may not be set for init containers without restartPolicy=Always` });
      continue;
    }
    errors.push(...validateProbe(probe, `${field}.${name}`, name !== 'readinessProbe'));
  }
  return errors;
}

function validateProbe(probe: Probe, field: string, mustSucceedOnce: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const handlers = [probe.exec, probe.httpGet, probe.tcpSocket, probe.grpc].filter((h) => h !== undefined).length;
  if (handlers === 0) errors.push({ ...required(field), detail: 'must specify a handler type' });
  if (handlers > 1) errors.push({ type: 'FieldValueForbidden', field, detail: 'may not specify more than 1 handler type' });
  if (mustSucceedOnce && probe.successThreshold !== undefined && probe.successThreshold !== 1) {
    errors.push(invalid(`${field}.successThreshold`, probe.successThreshold, 'must be 1'));
  }
  for (const key of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const value = probe[key];
    if (value !== undefined && value < 0) errors.push(invalid(`${field}.${key}`, value, 'must be greater than or equal to 0'));
  }
  return errors;
}
