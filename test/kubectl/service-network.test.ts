/**
 * The Service network through every kubectl: the `kubernetes` Service's endpoints pointing at
 * the API server, the `kubernetes` ServiceCIDR, an IPAddress per cluster IP, ServiceCIDRs and
 * IPAddresses applied with default validation, kube-apiserver's validation messages, and
 * `explain`.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl, tableLineOf } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const BUNDLE = `apiVersion: networking.k8s.io/v1
kind: ServiceCIDR
metadata:
  name: extra
spec:
  cidrs: [172.30.0.0/24]
---
apiVersion: networking.k8s.io/v1
kind: IPAddress
metadata:
  name: 172.30.0.50
spec:
  parentRef:
    group: gateway.networking.k8s.io
    resource: gateways
    namespace: default
    name: edge
`;

const header = (stdout: string) => stdout.split('\n')[0]!.replace(/\s+/g, ' ').trim();
/** rowOf is a table line with its spaces squeezed (for tables without an AGE column). */
const rowOf = (stdout: string, name: string) =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${name} `))
    ?.replace(/\s+/g, ' ')
    .trim();

describe.each(binaries)('$label: the Service network', (binary) => {
  const k = useKubectlCluster(binary);
  const port = () => new URL(k.cluster().url).port;

  it('lists the kinds in api-resources as a 1.33 cluster does', async () => {
    const rows = (await k.ok(['api-resources'])).stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    // The short name `ip` came with the kind's v1 storage (pkg/registry/networking/ipaddress).
    expect(rows).toContain('ipaddresses ip networking.k8s.io/v1 false IPAddress');
    expect(rows).toContain('servicecidrs networking.k8s.io/v1 false ServiceCIDR');
  });

  it('shows the kubernetes Service endpoints at the API server', async () => {
    const endpoints = (await k.ok(['get', 'endpoints', 'kubernetes'])).stdout;
    expect(header(endpoints)).toBe('NAME ENDPOINTS AGE');
    expect(tableLineOf(endpoints, 'kubernetes')).toBe(`kubernetes 127.0.0.1:${port()} <age>`);
    const slices = (await k.ok(['get', 'endpointslices', 'kubernetes'])).stdout;
    expect(tableLineOf(slices, 'kubernetes')).toBe(`kubernetes IPv4 ${port()} 127.0.0.1 <age>`);
    const service = (await k.ok(['describe', 'service', 'kubernetes'])).stdout;
    expect(service).toMatch(new RegExp(`^Endpoints:\\s+127\\.0\\.0\\.1:${port()}$`, 'm'));
  });

  it('shows the kubernetes ServiceCIDR and the IPAddress of every cluster IP', async () => {
    const cidrs = (await k.ok(['get', 'servicecidrs'])).stdout;
    expect(header(cidrs)).toBe('NAME CIDRS AGE');
    expect(tableLineOf(cidrs, 'kubernetes')).toBe('kubernetes 10.96.0.0/12 <age>');
    await k.ok(['create', 'service', 'clusterip', 'web', '--tcp=80:8080']);
    const ip = (await k.json(['service', 'web'])).spec.clusterIP;
    // The API server's loop mirrors the allocation right after the create returns.
    const addresses = await eventually(async () => {
      const { stdout } = await k.ok(['get', 'ipaddresses']);
      expect(rowOf(stdout, ip)).toBe(`${ip} services/default/web`);
      return stdout;
    });
    expect(header(addresses)).toBe('NAME PARENTREF');
    expect(rowOf(addresses, '10.96.0.1')).toBe('10.96.0.1 services/default/kubernetes');
    await k.ok(['delete', 'service', 'web']);
    await eventually(async () => expect((await k.run(['get', 'ipaddress', ip])).stderr).toContain(`ipaddresses.networking.k8s.io "${ip}" not found`));
  });

  it('applies ServiceCIDRs and IPAddresses with default validation, prints them and deletes them', async () => {
    const applied = await k.apply(BUNDLE);
    expect(applied.stdout.trim().split('\n')).toEqual(['servicecidr.networking.k8s.io/extra created', 'ipaddress.networking.k8s.io/172.30.0.50 created']);
    expect(tableLineOf((await k.ok(['get', 'servicecidr', 'extra'])).stdout, 'extra')).toBe('extra 172.30.0.0/24 <age>');
    expect(rowOf((await k.ok(['get', 'ipaddress', '172.30.0.50'])).stdout, '172.30.0.50')).toBe('172.30.0.50 gateways.gateway.networking.k8s.io/default/edge');
    const taken = await k.run(['create', 'service', 'clusterip', 'edge', '--tcp=80:80', '--clusterip=172.30.0.50']);
    expect(taken.stderr).toContain('failed to allocate IP 172.30.0.50: provided IP is already allocated');
    await k.ok(['create', 'service', 'clusterip', 'edge', '--tcp=80:80', '--clusterip=172.30.0.60']);
    await k.ok(['delete', 'service', 'edge']);
    const deleted = await k.ok(['delete', '-f', '-'], { stdin: BUNDLE });
    expect(deleted.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('rejects what kube-apiserver rejects, in its words', async () => {
    const named = await k.run(['apply', '-f', '-'], { stdin: BUNDLE.split('---\n')[1]!.replace('name: 172.30.0.50', 'name: "2001:DB8::5"') });
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('metadata.name: Invalid value: "2001:DB8::5": must be in canonical form ("2001:db8::5")');
    const orphan = await k.run(['apply', '-f', '-'], {
      stdin: 'apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata:\n  name: 172.30.0.51\nspec: {}\n',
    });
    expect(orphan.stderr).toContain('spec.parentRef: Required value');
    const sameFamily = await k.run(['apply', '-f', '-'], { stdin: BUNDLE.split('---\n')[0]!.replace('[172.30.0.0/24]', '[172.30.0.0/24, 172.31.0.0/24]') });
    expect(sameFamily.stderr).toContain(
      'spec.cidrs: Invalid value: []string{"172.30.0.0/24", "172.31.0.0/24"}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    );
    const changed = await k.run(['patch', 'servicecidr', 'kubernetes', '--type=merge', '-p', '{"spec":{"cidrs":["10.96.0.0/16"]}}']);
    expect(changed.stderr).toContain('spec.cidrs[0]: Invalid value: "10.96.0.0/16": field is immutable');
  });

  it('describes the kinds (kubectl < 1.33 asks for v1beta1, which a 1.33 server does not serve by default)', async () => {
    const cidr = await k.run(['describe', 'servicecidr', 'kubernetes']);
    const address = await k.run(['describe', 'ipaddress', '10.96.0.1']);
    if (cidr.code !== 0 || address.code !== 0) {
      expect(binary.minor).toBeLessThan(33);
      for (const failed of [cidr, address]) expect(failed.stderr).toContain('the server could not find the requested resource');
      return;
    }
    expect(cidr.stdout).toMatch(/^CIDRs:\s+10\.96\.0\.0\/12$/m);
    expect(cidr.stdout).toMatch(/^\s+Ready\s+True\s+.+\s+Kubernetes default Service CIDR is ready$/m);
    expect(address.stdout).toMatch(/^\s+Resource:\s+services$/m);
    expect(address.stdout).toMatch(/^\s+Name:\s+kubernetes$/m);
  });

  it('explains the kinds from their OpenAPI schemas', async () => {
    expect((await k.ok(['explain', 'servicecidr.spec.cidrs'])).stdout).toContain('KIND:       ServiceCIDR');
    expect((await k.ok(['explain', 'ipaddress.spec.parentRef'])).stdout).toContain('KIND:       IPAddress');
  });
});
