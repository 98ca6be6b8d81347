import { describe, expect, it } from 'vitest';
import type { KubeconfigTarget } from '../controllers/runtime/client/kubeconfig.js';
import { UsageError } from './args.js';
import { withServerFlag } from './server-flag.js';

const target: KubeconfigTarget = { server: 'https://127.0.0.1:6443', namespace: 'default', token: 't', tls: { ca: 'CA' } };

describe('--server', () => {
  it('keeps the kubeconfig server when absent', () => {
    expect(withServerFlag({}, target)).toBe(target);
  });

  it("replaces only the server, keeping the kubeconfig's credentials and CA", () => {
    const aimed = withServerFlag({ server: ' https://10.0.0.1:6443 , https://10.0.0.2:6443,' }, target);
    expect(aimed).toEqual({ ...target, server: 'https://10.0.0.1:6443,https://10.0.0.2:6443' });
  });

  it('rejects an entry that is not an http(s) URL, and an empty list', () => {
    expect(() => withServerFlag({ server: 'https://10.0.0.1:6443,10.0.0.2:6443' }, target)).toThrow(UsageError);
    expect(() => withServerFlag({ server: 'https://10.0.0.1:6443,10.0.0.2:6443' }, target)).toThrow('"10.0.0.2:6443" is not an http(s) URL');
    expect(() => withServerFlag({ server: ' , ' }, target)).toThrow('--server needs an API server URL');
  });
});
