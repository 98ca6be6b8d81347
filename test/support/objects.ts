/** Manifests and paths shared by the API integration tests: the smallest valid objects of
 * the kinds the tests write, shaped as kubectl sends them. */

/** Collection paths, namespace `default` unless given. */
export const paths = {
  deployments: (ns = 'default') => `/apis/apps/v1/namespaces/${ns}/deployments`,
  deployment: (name: string, ns = 'default') => `/apis/apps/v1/namespaces/${ns}/deployments/${name}`,
  configmaps: (ns = 'default') => `/api/v1/namespaces/${ns}/configmaps`,
  configmap: (name: string, ns = 'default') => `/api/v1/namespaces/${ns}/configmaps/${name}`,
  pods: (ns = 'default') => `/api/v1/namespaces/${ns}/pods`,
  pod: (name: string, ns = 'default') => `/api/v1/namespaces/${ns}/pods/${name}`,
  events: (ns = 'default') => `/api/v1/namespaces/${ns}/events`,
  namespaces: () => '/api/v1/namespaces',
  namespace: (name: string) => `/api/v1/namespaces/${name}`,
};

/** deployment is an apps/v1 Deployment whose selector, template labels and container are
 * derived from its name (`app=<name>`, container nginx). */
export function deployment(name = 'web', replicas = 2): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    },
  };
}

/** configMap is a v1 ConfigMap with the given labels and data. */
export function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = { k: 'v' }): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

/** pod is an unscheduled v1 Pod with one container. */
export function pod(name: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36' }], ...spec },
  };
}

/** namespace is a v1 Namespace. */
export function namespace(name: string, labels: Record<string, string> = {}): any {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

/** event is a core/v1 Event about `involved`. */
export function event(name: string, involved: Record<string, string>, reason = 'Testing'): any {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: involved,
    reason,
    message: `${reason} ${involved['name'] ?? ''}`,
    type: 'Normal',
    source: { component: 'test' },
    count: 1,
  };
}

/** names lists the metadata.name of every item of a list body. */
export function names(list: { items: Array<{ metadata: { name: string } }> }): string[] {
  return list.items.map((item) => item.metadata.name);
}
