/**
 * The ComponentStatus source: kube-apiserver answers `kubectl get componentstatuses` by
 * probing the scheduler, the controller-manager and etcd. kubesim's store lives inside the
 * API server (always healthy), and its loops report to the activity board, in process or
 * from their own processes (PUT …/activity/{component}): a part is healthy while one of its
 * processes is reporting.
 */
import { componentStatusDefinition } from '../api/core/component-status.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { VirtualSource } from '../handlers/types.js';
import type { ActivityBoard } from './activity-board.js';

/** The parts kube-apiserver lists, in its order, and how to recognise their reporters on the
 * board: `kubesim up` names them `scheduler`/`default-scheduler` and `<loop>-controller`/
 * `kubesim-controller-manager`/`kube-controller-manager`. */
const PARTS: Array<{ name: string; reporter?: (component: string) => boolean }> = [
  { name: 'scheduler', reporter: (component) => component.includes('scheduler') },
  { name: 'controller-manager', reporter: (component) => component.endsWith('-controller') || component.includes('controller-manager') },
  { name: 'etcd-0' },
];

function statusOf(name: string, healthy: boolean): KubeObject {
  const condition = healthy
    ? { type: 'Healthy', status: 'True', message: 'ok' }
    : { type: 'Healthy', status: 'False', error: `no ${name} is reporting to this API server` };
  return { kind: componentStatusDefinition.kind, apiVersion: 'v1', metadata: { name }, conditions: [condition] };
}

/** componentStatusSource computes the three ComponentStatuses from `board` on each read. */
export function componentStatusSource(board: ActivityBoard): VirtualSource {
  const list = () => {
    const reporting = board.current().map((activity) => activity.component);
    return PARTS.map(({ name, reporter }) => statusOf(name, reporter === undefined || reporting.some(reporter)));
  };
  return { list, get: (_namespace, name) => list().find((status) => status.metadata.name === name) };
}
