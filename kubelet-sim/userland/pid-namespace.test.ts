import { describe, expect, it } from 'vitest';
import { objectReader, podObject, run, userlandFor } from '../../test/support/userland.js';
import { createUserlandFactory } from './index.js';

/** A pod whose `main` sleeps, with a debug container: targeting `main` or not. */
function debuggedPod(target: string | undefined) {
  const debuggerSpec = { name: 'debugger', image: 'busybox', stdin: true, tty: true, ...(target ? { targetContainerName: target } : {}) };
  return podObject('web', { container: { command: ['sleep', '3600'] }, spec: { ephemeralContainers: [debuggerSpec] } });
}

describe('PID namespaces of debug containers', () => {
  it('puts a debug container with a target in the target’s PID namespace, both ways', async () => {
    const factory = createUserlandFactory();
    const pod = debuggedPod('main');
    const debug = userlandFor(pod, objectReader([]), 'debugger', factory).userland;
    // Built before its target: PID 1 is the target's main process as its spec says.
    expect((await run(debug, ['ps'])).stdout).toBe(
      'PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 3600\n    7 root      0:00 sh\n    8 root      0:00 ps\n',
    );
    const main = userlandFor(pod, objectReader([]), 'main', factory).userland;
    expect((await run(main, ['ps'])).stdout).toBe(
      'PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 3600\n    7 root      0:00 sh\n    9 root      0:00 ps\n',
    );
  });

  it('keeps a debug container without a target in its own namespace', async () => {
    const debug = userlandFor(debuggedPod(undefined), objectReader([]), 'debugger').userland;
    expect((await run(debug, ['ps'])).stdout).toBe('PID   USER     TIME  COMMAND\n    1 root      0:00 sh\n    7 root      0:00 ps\n');
  });

  it('gives a pod with shareProcessNamespace one namespace: pause, then each container’s main process', async () => {
    const factory = createUserlandFactory();
    const pod = podObject('shared', { container: { command: ['sleep', '3600'] }, spec: { shareProcessNamespace: true } });
    pod.spec.containers.push({ name: 'debugger', image: 'busybox', stdin: true, tty: true });
    const debug = userlandFor(pod, objectReader([]), 'debugger', factory).userland;
    expect((await run(debug, ['ps'])).stdout).toBe(
      'PID   USER     TIME  COMMAND\n    1 65535     0:00 /pause\n    7 root      0:00 sleep 3600\n    8 root      0:00 sh\n    9 root      0:00 ps\n',
    );
  });

  it('forgets a deleted pod’s namespaces', async () => {
    const factory = createUserlandFactory();
    const pod = debuggedPod('main');
    await run(userlandFor(pod, objectReader([]), 'debugger', factory).userland, ['true']);
    factory.forgetPod('uid-web');
    const main = userlandFor(pod, objectReader([]), 'main', factory).userland;
    expect((await run(main, ['ps'])).stdout).toBe('PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 3600\n    7 root      0:00 ps\n');
  });
});
