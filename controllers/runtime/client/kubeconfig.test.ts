import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { KubeconfigError, loadKubeconfig, parseKubeconfig } from './kubeconfig.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(overrides: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'c1', cluster: { server: 'http://127.0.0.1:6443' } },
      { name: 'c2', cluster: { server: 'http://other:1' } },
    ],
    users: [{ name: 'u1', user: { token: 'secret' } }],
    contexts: [
      { name: 'ctx', context: { cluster: 'c1', user: 'u1', namespace: 'team-a' } },
      { name: 'bare', context: { cluster: 'c2' } },
    ],
    'current-context': 'ctx',
    ...overrides,
  });
}

describe('loadKubeconfig', () => {
  it('resolves the current context: server, token and namespace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
    dirs.push(dir);
    const path = join(dir, 'config');
    writeFileSync(path, kubeconfig());
    expect(loadKubeconfig(path)).toEqual({ server: 'http://127.0.0.1:6443', token: 'secret', namespace: 'team-a' });
  });

  it('defaults the namespace and omits a missing token', () => {
    expect(parseKubeconfig(kubeconfig({ 'current-context': 'bare' }), 'x')).toEqual({ server: 'http://other:1', namespace: 'default' });
  });

  it('says how to get a kubeconfig when the file is missing', () => {
    expect(() => loadKubeconfig('/nonexistent/kubeconfig')).toThrow(
      'no kubeconfig at /nonexistent/kubeconfig: start a cluster with `kubesim up` or pass --kubeconfig',
    );
  });

  it.each([
    ['invalid YAML', '{{{', /is not valid YAML/],
    ['no current context', kubeconfig({ 'current-context': '' }), /has no current-context/],
    ['an unknown context', kubeconfig({ 'current-context': 'nope' }), /has no context named "nope" \(known: ctx, bare\)/],
    ['a context without a cluster', kubeconfig({ clusters: [] }), /has no cluster named "c1"/],
  ])('rejects %s with KubeconfigError', (_what, text, message) => {
    expect(() => parseKubeconfig(text, 'cfg')).toThrow(KubeconfigError);
    expect(() => parseKubeconfig(text, 'cfg')).toThrow(message);
  });
});

describe('parseKubeconfig TLS fields', () => {
  const withTls = (cluster: Record<string, unknown>, user: Record<string, unknown>) =>
    stringify({
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443', ...cluster } }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    });
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it('reads the CA and the client certificate inline (*-data, base64)', () => {
    const text = withTls({ 'certificate-authority-data': b64('CA') }, { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') });
    expect(parseKubeconfig(text, 'inline').tls).toEqual({ ca: 'CA', cert: 'CERT', key: 'KEY' });
  });

  it('reads them from files, relative to the kubeconfig, and names a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-tls-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'ca.crt'), 'CA');
    writeFileSync(join(dir, 'admin.crt'), 'CERT');
    writeFileSync(join(dir, 'admin.key'), 'KEY');
    const path = join(dir, 'config');
    writeFileSync(path, withTls({ 'certificate-authority': 'ca.crt' }, { 'client-certificate': 'admin.crt', 'client-key': 'admin.key', token: 't' }));
    expect(loadKubeconfig(path)).toMatchObject({ token: 't', tls: { ca: 'CA', cert: 'CERT', key: 'KEY' } });
    writeFileSync(path, withTls({ 'certificate-authority': 'missing.crt' }, {}));
    expect(() => loadKubeconfig(path)).toThrow(KubeconfigError);
  });

  it('keeps insecure-skip-tls-verify, and has no tls for a kubeconfig without any of it', () => {
    expect(parseKubeconfig(withTls({ 'insecure-skip-tls-verify': true }, {}), 'inline').tls).toEqual({ insecureSkipVerify: true });
    expect(parseKubeconfig(withTls({}, {}), 'inline').tls).toBeUndefined();
  });
});
