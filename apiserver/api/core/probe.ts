/** core/v1 Probe and the handler actions shared by probes and lifecycle hooks. */
import { z } from 'zod';
import { IntOrStringSchema } from '../meta.js';
import { K8S_CORE } from './schema-helpers.js';

export const ExecActionSchema = z
  .object({ command: z.array(z.string()).optional().describe('Command line to run inside the container; exit status 0 is success.') })
  .meta({ id: `${K8S_CORE}.ExecAction`, description: 'ExecAction runs a command inside the container.' });

export const HTTPHeaderSchema = z
  .object({ name: z.string().describe('Header name.'), value: z.string().describe('Header value.') })
  .meta({ id: `${K8S_CORE}.HTTPHeader` });

export const HTTPGetActionSchema = z
  .object({
    path: z.string().optional().describe('Path to request. Defaults to "/".'),
    port: IntOrStringSchema.describe('Port number or name of the container port to connect to.'),
    host: z.string().optional().describe('Host to connect to; the pod IP when empty.'),
    scheme: z.string().optional().describe('HTTP or HTTPS. Defaults to HTTP.'),
    httpHeaders: z.array(HTTPHeaderSchema).optional().describe('Extra request headers.'),
  })
  .meta({ id: `${K8S_CORE}.HTTPGetAction`, description: 'HTTPGetAction performs an HTTP GET; a 2xx or 3xx answer is success.' });

export const TCPSocketActionSchema = z
  .object({
    port: IntOrStringSchema.describe('Port number or name to connect to.'),
    host: z.string().optional().describe('Host to connect to; the pod IP when empty.'),
  })
  .meta({ id: `${K8S_CORE}.TCPSocketAction`, description: 'TCPSocketAction succeeds when a TCP connection can be opened.' });

export const GRPCActionSchema = z
  .object({
    port: z.int32().describe('Port of the gRPC health service.'),
    service: z.string().optional().describe('Service name passed in the gRPC HealthCheckRequest.'),
  })
  .meta({ id: `${K8S_CORE}.GRPCAction`, description: 'GRPCAction calls the standard gRPC health checking protocol.' });

export const ProbeSchema = z
  .object({
    exec: ExecActionSchema.optional().describe('Run a command in the container.'),
    httpGet: HTTPGetActionSchema.optional().describe('Perform an HTTP GET request.'),
    tcpSocket: TCPSocketActionSchema.optional().describe('Open a TCP connection.'),
    grpc: GRPCActionSchema.optional().describe('Call a gRPC health check.'),
    initialDelaySeconds: z.int32().optional().describe('Seconds after the container started before the first probe.'),
    timeoutSeconds: z.int32().optional().describe('Seconds after which the probe times out. Defaults to 1.'),
    periodSeconds: z.int32().optional().describe('How often, in seconds, to probe. Defaults to 10.'),
    successThreshold: z.int32().optional().describe('Consecutive successes needed after a failure. Defaults to 1.'),
    failureThreshold: z.int32().optional().describe('Consecutive failures before giving up. Defaults to 3.'),
    terminationGracePeriodSeconds: z.number().int().optional().describe('Grace period used when a failed probe kills the container.'),
  })
  .meta({
    id: `${K8S_CORE}.Probe`,
    description: 'Probe describes a health check performed against a container to decide whether it is alive or ready.',
  });

export type Probe = z.infer<typeof ProbeSchema>;

/** defaultProbe fills Kubernetes' probe defaults in place (timing and HTTP path/scheme). */
export function defaultProbe(probe: Probe): void {
  probe.timeoutSeconds ??= 1;
  probe.periodSeconds ??= 10;
  probe.successThreshold ??= 1;
  probe.failureThreshold ??= 3;
  if (probe.httpGet) {
    probe.httpGet.path ||= '/';
    probe.httpGet.scheme ||= 'HTTP';
  }
}
