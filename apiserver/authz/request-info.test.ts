import { describe, expect, it } from 'vitest';
import { requestAttributes } from './request-info.js';

const user = { username: 'u', groups: [] };
const attributes = (method: string, url: string, query: Record<string, string> = {}) => {
  const { user: _, ...rest } = requestAttributes(user, method, url, query);
  return rest;
};

describe('request attributes, as kube-apiserver’s RequestInfoFactory reads a URL', () => {
  it('reads resource requests: verb, group, namespace, resource, name, subresource', () => {
    expect(attributes('GET', '/api/v1/namespaces/default/pods')).toEqual({ verb: 'list', apiGroup: '', resource: 'pods', namespace: 'default' });
    expect(attributes('GET', '/api/v1/namespaces/default/pods', { watch: 'true' })).toEqual({
      verb: 'watch',
      apiGroup: '',
      resource: 'pods',
      namespace: 'default',
    });
    expect(attributes('GET', '/api/v1/namespaces/default/pods/web/log')).toEqual({
      verb: 'get',
      apiGroup: '',
      resource: 'pods',
      name: 'web',
      subresource: 'log',
      namespace: 'default',
    });
    expect(attributes('DELETE', '/apis/apps/v1/namespaces/ci/deployments')).toEqual({
      verb: 'deletecollection',
      apiGroup: 'apps',
      resource: 'deployments',
      namespace: 'ci',
    });
    expect(attributes('PATCH', '/api/v1/nodes/n1/status')).toEqual({ verb: 'patch', apiGroup: '', resource: 'nodes', name: 'n1', subresource: 'status' });
    expect(attributes('POST', '/api/v1/namespaces')).toEqual({ verb: 'create', apiGroup: '', resource: 'namespaces' });
  });

  it('names the object of a namespace request, a watch by name and the legacy /watch/ prefix', () => {
    expect(attributes('GET', '/api/v1/namespaces/ci')).toEqual({ verb: 'get', apiGroup: '', resource: 'namespaces', name: 'ci', namespace: 'ci' });
    expect(attributes('PUT', '/api/v1/namespaces/ci/finalize')).toEqual({
      verb: 'update',
      apiGroup: '',
      resource: 'namespaces',
      name: 'ci',
      subresource: 'finalize',
      namespace: 'ci',
    });
    expect(attributes('GET', '/api/v1/pods', { watch: '1', fieldSelector: 'metadata.name=web' })).toEqual({
      verb: 'watch',
      apiGroup: '',
      resource: 'pods',
      name: 'web',
    });
    expect(attributes('GET', '/api/v1/watch/namespaces/default/pods/web')).toEqual({
      verb: 'watch',
      apiGroup: '',
      resource: 'pods',
      name: 'web',
      namespace: 'default',
    });
  });

  it('treats everything else as a non-resource request with the lower-cased method as verb', () => {
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/healthz', '/version', '/openapi/v2', '/metrics']) {
      expect(attributes('GET', `${path}?timeout=32s`)).toEqual({ verb: 'get', path });
    }
    expect(attributes('HEAD', '/healthz')).toEqual({ verb: 'head', path: '/healthz' });
  });

  it('maps kubesim’s own API onto kubesim.io resources', () => {
    expect(attributes('POST', '/apis/kubesim.io/v1alpha1/clock/advance')).toEqual({
      verb: 'create',
      apiGroup: 'kubesim.io',
      resource: 'clock',
      subresource: 'advance',
    });
    expect(attributes('GET', '/apis/kubesim.io/v1alpha1/history', { watch: 'true' })).toEqual({ verb: 'watch', apiGroup: 'kubesim.io', resource: 'history' });
    expect(attributes('DELETE', '/apis/kubesim.io/v1alpha1/faults/f-1')).toEqual({ verb: 'delete', apiGroup: 'kubesim.io', resource: 'faults', name: 'f-1' });
    expect(attributes('PUT', '/apis/kubesim.io/v1alpha1/activity/scheduler')).toEqual({
      verb: 'update',
      apiGroup: 'kubesim.io',
      resource: 'activity',
      name: 'scheduler',
    });
    expect(attributes('POST', '/kubesim/v1/components/kubelet/stop')).toEqual({
      verb: 'create',
      apiGroup: 'kubesim.io',
      resource: 'components',
      name: 'kubelet',
      subresource: 'stop',
    });
    expect(attributes('GET', '/kubesim/ui/app.js')).toEqual({ verb: 'get', path: '/kubesim/ui/app.js' });
  });
});
