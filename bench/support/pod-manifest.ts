/** podManifest builds the Pod the API bench writes: two containers with environment,
 * resources, ports and labels, about 2 KiB of JSON, as a controller-made Pod looks. */

/** PodManifestOptions name the Pod; `index` varies a few values so bodies are not identical. */
export interface PodManifestOptions {
  namespace: string;
  name: string;
  index: number;
}

/** podManifest returns a fresh JSON-ready Pod for POST /api/v1/namespaces/{ns}/pods. */
export function podManifest({ namespace, name, index }: PodManifestOptions): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: {
        app: 'checkout',
        tier: 'frontend',
        'app.kubernetes.io/version': '2.14.3',
        'app.kubernetes.io/part-of': 'shop',
        'pod-template-hash': '7c9f5d8b6',
      },
      annotations: { 'kubesim.dev/bench-index': String(index) },
    },
    spec: {
      containers: [appContainer(index), sidecarContainer()],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      nodeSelector: { 'kubernetes.io/os': 'linux' },
    },
  };
}

function appContainer(index: number): Record<string, unknown> {
  return {
    name: 'checkout',
    image: 'registry.example.com/shop/checkout:2.14.3',
    imagePullPolicy: 'IfNotPresent',
    args: ['--listen=:8080', '--metrics=:9090', '--log-format=json'],
    ports: [
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
    ],
    env: [
      { name: 'SHOP_ENV', value: 'production' },
      { name: 'SHOP_REGION', value: 'europe-west1' },
      { name: 'SHOP_REPLICA', value: String(index) },
      { name: 'DATABASE_URL', value: 'postgres://checkout@db.shop.svc.cluster.local:5432/checkout' },
      { name: 'CACHE_URL', value: 'redis://cache.shop.svc.cluster.local:6379/0' },
      { name: 'PAYMENTS_ENDPOINT', value: 'http://payments.shop.svc.cluster.local:8080' },
      { name: 'FEATURE_FLAGS', value: 'new-basket,fast-checkout,express-shipping' },
      { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: 'http://otel-collector.observability:4317' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    ],
    resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
  };
}

function sidecarContainer(): Record<string, unknown> {
  return {
    name: 'log-shipper',
    image: 'registry.example.com/platform/log-shipper:1.9.0',
    env: [
      { name: 'SHIP_TO', value: 'http://logs.observability.svc.cluster.local:9880' },
      { name: 'BUFFER_BYTES', value: '1048576' },
    ],
    resources: { requests: { cpu: '20m', memory: '32Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
  };
}

/** deploymentManifest is the Deployment the whole-cluster benches roll out: `replicas` pods
 * labelled app=<name>, each asking 10m CPU and 16Mi (so 100 fit a simulated node). */
export function deploymentManifest(name: string, replicas: number) {
  return {
    apiVersion: 'apps/v1' as const,
    kind: 'Deployment' as const,
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
      },
    },
  };
}
