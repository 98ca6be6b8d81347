/** Service validation after Kubernetes' ValidateService, for the fields kubesim serves. */
import type { FieldError } from '../resource-definition.js';
import { duplicate, forbidden, invalid, isDns1123Label, isDns1123Subdomain, isValidPortName, isValidPortNum, required, validateLabels } from '../validation.js';
import type { Service, ServicePort } from './service.js';

/** validateService checks a (defaulted) Service; `old` is set on update. Pure. */
export function validateService(service: Service, old?: Service): FieldError[] {
  const spec = service.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  const errors: FieldError[] = [];
  const isHeadless = spec.clusterIP === 'None';
  if (type === 'ExternalName') {
    if (!spec.externalName) errors.push(required('spec.externalName'));
    else errors.push(...isDns1123Subdomain(spec.externalName).map((d) => invalid('spec.externalName', spec.externalName, d)));
  } else if ((spec.ports ?? []).length === 0 && !isHeadless) {
    errors.push(required('spec.ports'));
  }
  errors.push(...validatePorts(spec.ports ?? [], type));
  errors.push(...validateLabels(spec.selector, 'spec.selector'));
  const oldIP = old?.spec?.clusterIP;
  if (oldIP && spec.clusterIP && oldIP !== spec.clusterIP && type !== 'ExternalName' && old?.spec?.type !== 'ExternalName') {
    errors.push(invalid('spec.clusterIP', spec.clusterIP, 'field is immutable'));
  }
  return errors;
}

function validatePorts(ports: ServicePort[], type: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    if (!port.name && ports.length > 1) errors.push(required(`${at}.name`));
    if (port.name) {
      errors.push(...isDns1123Label(port.name).map((d) => invalid(`${at}.name`, port.name, d)));
      if (names.has(port.name)) errors.push(duplicate(`${at}.name`, port.name));
      names.add(port.name);
    }
    errors.push(...isValidPortNum(port.port).map((d) => invalid(`${at}.port`, port.port, d)));
    errors.push(...validateTargetPort(port.targetPort, `${at}.targetPort`));
    if (port.nodePort) {
      if (type !== 'NodePort' && type !== 'LoadBalancer') errors.push(forbidden(`${at}.nodePort`, `may not be used when \`type\` is '${type}'`));
      errors.push(...isValidPortNum(port.nodePort).map((d) => invalid(`${at}.nodePort`, port.nodePort, d)));
    }
    const key = `${port.port}/${port.protocol ?? 'TCP'}`;
    if (keys.has(key)) errors.push(duplicate(at, { port: port.port, protocol: port.protocol ?? 'TCP' }));
    keys.add(key);
  });
  return errors;
}

function validateTargetPort(target: number | string | undefined, field: string): FieldError[] {
  if (target === undefined) return [];
  const problems = typeof target === 'number' ? isValidPortNum(target) : isValidPortName(target);
  return problems.map((d) => invalid(field, target, d));
}
