/** The service Table row, after kube's printService (rendered wide, as the server does). */
import { ageColumn, column, formatLabels, nameColumn } from '../printing.js';
import type { PrintColumn } from '../resource-definition.js';
import type { Service } from './service.js';

/** serviceExternalIPCell is the EXTERNAL-IP cell: external IPs for ClusterIP/NodePort
 * (`<none>` without), load balancer ingress points then external IPs for LoadBalancer
 * (`<pending>` while there are none), the external name for ExternalName. */
export function serviceExternalIPCell(service: Service): string {
  const externalIPs = service.spec?.externalIPs ?? [];
  switch (service.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = (service.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter(Boolean);
      const all = [...ingress, ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return service.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** servicePortsCell renders ports as `port/PROTO` or `port:nodePort/PROTO`, comma-joined,
 * `<none>` without ports. */
export function servicePortsCell(service: Service): string {
  const ports = service.spec?.ports ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`)).join(',');
}

/** serviceColumns are the service Table columns (KUBECTL-WIRE §1.6). */
export const serviceColumns: PrintColumn[] = [
  nameColumn,
  column('Type', (s: Service) => s.spec?.type ?? '', { description: 'How the service is exposed.' }),
  column('Cluster-IP', (s: Service) => s.spec?.clusterIPs?.[0] || s.spec?.clusterIP || '<none>', {
    description: 'Virtual IP of the service.',
  }),
  column('External-IP', serviceExternalIPCell, { description: 'Addresses on which the service is reachable from outside.' }),
  column('Port(s)', servicePortsCell, { description: 'Ports exposed by the service.' }),
  ageColumn,
  column('Selector', (s: Service) => formatLabels(s.spec?.selector), { wide: true, description: 'Pods the service routes to.' }),
];
