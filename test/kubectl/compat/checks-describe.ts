/**
 * Compatibility checks, part 3: `describe` of the Deployment web (right after its first
 * rollout), one of its pods, the Service and a node — compared with the key lines a real
 * cluster prints. Lines kubesim cannot match for reasons outside the wire (a real pod's
 * service-account token mount, kubesim's scheduler annotation) are left out.
 */
import type { Check } from './context.js';
import { CheckFailure, expectLines, expectText } from './normalize.js';

const DESCRIBE_DEPLOYMENT = `
Name:                   web
Namespace:              <ns>
CreationTimestamp:      <time>
Labels:                 app=web
Annotations:            deployment.kubernetes.io/revision: 1
Selector:               app=web
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         nginx:1.25
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   web-<hash> (2/2 replicas created)
Events:
  Type    Reason             Age    From                   Message
  ----    ------             ----   ----                   -------
  Normal  ScalingReplicaSet  <age>  deployment-controller  Scaled up replica set web-<hash> from 0 to 2`;

const DESCRIBE_POD = [
  'Name:             web-<hash>-<id>',
  'Namespace:        <ns>',
  'Priority:         0',
  'Service Account:  default',
  'Node:             <node>/<ip>',
  'Start Time:       <time>',
  'Labels:           app=web',
  '                  pod-template-hash=<hash>',
  'Status:           Running',
  'IP:               <ip>',
  'IPs:',
  '  IP:           <ip>',
  'Controlled By:  ReplicaSet/web-<hash>',
  'Containers:',
  '  nginx:',
  '    Container ID:   containerd://<*>',
  '    Image:          nginx:1.25',
  '    Image ID:       docker.io/library/nginx@sha256:<*>',
  '    Port:           <none>',
  '    Host Port:      <none>',
  '    State:          Running',
  '      Started:      <time>',
  '    Ready:          True',
  '    Restart Count:  0',
  'Conditions:',
  '  Type                        Status',
  '  PodReadyToStartContainers   True',
  '  Initialized                 True',
  '  Ready                       True',
  '  ContainersReady             True',
  '  PodScheduled                True',
  'QoS Class:                   BestEffort',
  'Node-Selectors:              <none>',
  'Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s',
  '                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s',
  'Events:',
  '  Type    Reason     Age    From               Message',
  '  ----    ------     ----   ----               -------',
  // Same-second kubelet events come in any order; the scheduler's is always first.
  '  Normal  Scheduled  <age>  default-scheduler  Successfully assigned <ns>/web-<hash>-<id> to <node>',
];

const DESCRIBE_SERVICE = `
Name:                     web
Namespace:                <ns>
Labels:                   app=web
Annotations:              <none>
Selector:                 app=web
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       <ip>
IPs:                      <ip>
Port:                     80-80  80/TCP
TargetPort:               80/TCP
Endpoints:                <ip>:80,<ip>:80
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>`;

const DESCRIBE_NODE = [
  'Name:               <node>',
  'Roles:              <none>',
  'CreationTimestamp:  <time>',
  'Taints:             <none>',
  'Unschedulable:      false',
  'Conditions:',
  '  Type             Status  LastHeartbeatTime   LastTransitionTime   Reason                       Message',
  '  ----             ------  -----------------   ------------------   ------                       -------',
  '  MemoryPressure   False   <time>   <time>   KubeletHasSufficientMemory   kubelet has sufficient memory available',
  '  DiskPressure     False   <time>   <time>   KubeletHasNoDiskPressure     kubelet has no disk pressure',
  '  PIDPressure      False   <time>   <time>   KubeletHasSufficientPID      kubelet has sufficient PID available',
  '  Ready            True    <time>   <time>   KubeletReady                 kubelet is posting ready status',
  'Addresses:',
  '  InternalIP:  <ip>',
  '  Hostname:    <node>',
  'Capacity:',
  '  cpu:                <*>',
  '  memory:             <*>',
  '  pods:               110',
  'Allocatable:',
  'System Info:',
  '  Kubelet Version:            v1.33.0',
  'Non-terminated Pods:          (<*> in total)',
  '  Namespace   Name   CPU Requests   CPU Limits   Memory Requests   Memory Limits   Age',
  'Allocated resources:',
  '  (Total limits may be over 100 percent, i.e., overcommitted.)',
  '  Resource           Requests   Limits',
  '  cpu                <*>',
  '  memory             <*>',
  'Events:<*>',
];

export const describeChecks: Check[] = [
  {
    name: 'describe deployment',
    run: async (c) => expectText(await c.out(['describe', 'deployment', 'web']), DESCRIBE_DEPLOYMENT),
  },
  {
    name: 'describe pod',
    async run(c) {
      const pod = (await c.ok(['get', 'pods', '-l', 'app=web', '-o', 'name'])).stdout.split('\n')[0];
      if (!pod) throw new CheckFailure('no pod of web to describe');
      expectLines(await c.out(['describe', pod]), DESCRIBE_POD);
    },
  },
  {
    name: 'describe service',
    run: async (c) => expectText(await c.out(['describe', 'service', 'web']), DESCRIBE_SERVICE),
  },
  {
    name: 'describe node',
    run: async (c) => expectLines(await c.out(['describe', 'node', 'node-1']), DESCRIBE_NODE),
  },
];
