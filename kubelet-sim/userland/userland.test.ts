import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/support/eventually.js';
import { collectingIO, objectReader, podObject, run, sh, typist, userlandFor } from '../../test/support/userland.js';
import type { ClusterReader } from './contract.js';
import { createUserlandFactory } from './index.js';

describe('images', () => {
  it('gives each image family its files, shell and environment', async () => {
    const nginx = userlandFor(podObject('web', { image: 'docker.io/library/nginx:1.27' })).userland;
    expect((await run(nginx, ['cat', '/usr/share/nginx/html/index.html'])).stdout).toContain('<h1>Welcome to nginx!</h1>');
    expect((await run(nginx, ['cat', '/etc/os-release'])).stdout).toContain('ID=debian\n');
    expect((await run(nginx, ['printenv', 'NGINX_VERSION'])).status).toBe(0);
    expect((await run(userlandFor(podObject('a', { image: 'nginx:alpine' })).userland, ['cat', '/etc/os-release'])).stdout).toContain('ID=alpine\n');
    expect((await run(userlandFor(podObject('h', { image: 'httpd:2.4' })).userland, ['pwd'])).stdout).toBe('/usr/local/apache2\n');
    expect((await run(userlandFor(podObject('r', { image: 'redis' })).userland, ['pwd'])).stdout).toBe('/data\n');
    const ubuntu = userlandFor(podObject('u', { image: 'ubuntu:24.04' })).userland;
    expect((await run(ubuntu, ['grep', '^ID=', '/etc/os-release'])).stdout).toBe('ID=ubuntu\n');
    expect((await run(ubuntu, ['bash', '-c', 'echo $SHLVL'])).stdout).toBe('1\n');
    // busybox has no bash: the runtime cannot start it.
    expect((await run(userlandFor(podObject('b')).userland, ['bash'])).status).toBe(126);
  });

  it('honours workingDir and the pod hostname, subdomain, hostAliases and dnsPolicy', async () => {
    const pod = podObject('db-0', {
      container: { workingDir: '/work' },
      spec: {
        hostname: 'db-0',
        subdomain: 'db',
        hostAliases: [{ ip: '1.2.3.4', hostnames: ['foo.local', 'bar'] }],
        dnsConfig: { options: [{ name: 'ndots', value: '2' }], searches: ['example.com'] },
      },
    });
    const { userland } = userlandFor(pod);
    expect((await run(userland, ['pwd'])).stdout).toBe('/work\n');
    expect((await run(userland, ['cat', '/etc/hosts'])).stdout).toContain(
      '10.244.1.7\tdb-0.db.default.svc.cluster.local\tdb-0\n\n# Entries added by HostAliases.\n1.2.3.4\tfoo.local\tbar\n',
    );
    expect((await run(userland, ['cat', '/etc/resolv.conf'])).stdout).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local example.com\nnameserver 10.96.0.10\noptions ndots:2\n',
    );
    const hostNetwork = userlandFor(podObject('n', { spec: { hostNetwork: true } })).userland;
    expect((await run(hostNetwork, ['cat', '/etc/resolv.conf'])).stdout).not.toContain('10.96.0.10');
  });
});

describe('terminal sessions', () => {
  it('prompts, echoes keystrokes, edits the line and ends on exit (kubectl exec -it … sh)', async () => {
    const { userland } = userlandFor(podObject('web'));
    const { io, result } = collectingIO({ tty: true });
    const screen = () => result().stdout;
    const stdin = typist(screen, [
      { after: '/ # ', keys: 'ec' },
      { after: 'ec', keys: 'hx\x7fo hi\r' },
      { after: 'hi\r\n/ # ', keys: 'cd /tmp\r' },
      { after: '/tmp # ', keys: 'exit 5\r' },
    ]);
    expect(await userland.exec(['sh'], { ...io, stdin })).toBe(5);
    expect(screen()).toBe('/ # echx\b \bo hi\r\nhi\r\n/ # cd /tmp\r\n/tmp # exit 5\r\n');
  });

  it('reads more lines while a construct is open, and ^C interrupts the foreground command', async () => {
    const { userland, clock } = userlandFor(podObject('web'));
    const { io, result } = collectingIO({ tty: true });
    const screen = () => result().stdout;
    const stdin = typist(screen, [
      { after: '/ # ', keys: 'for i in 1 2\r' },
      { after: '> ', keys: 'do echo $i; done\r' },
      { after: '2\r\n/ # ', keys: 'sleep 100\r' },
      { after: () => clock.pendingTimers > 0, keys: '\x03' },
      { after: '^C\r\n/ # ', keys: 'echo $?\r' },
      { after: '130\r\n/ # ', keys: '\x04' },
    ]);
    expect(await userland.exec(['sh'], { ...io, stdin })).toBe(0);
    expect(screen()).toBe('/ # for i in 1 2\r\n> do echo $i; done\r\n1\r\n2\r\n/ # sleep 100\r\n^C\r\n/ # echo $?\r\n130\r\n/ # ');
  });

  it('without a terminal reads commands line by line, with no prompt (kubectl exec -i … sh)', async () => {
    const { userland } = userlandFor(podObject('web', { image: 'debian' }));
    const result = await run(userland, ['sh'], { stdin: 'echo one\nif true\nthen echo two\nfi\nx\necho $?\n' });
    expect(result).toMatchObject({ status: 0, stdout: 'one\ntwo\n127\n', stderr: 'sh: 5: x: not found\n' });
  });

  it('attach joins the main shell (kubectl run -it … -- sh), which waits for it with stdinOnce', async () => {
    const shell = userlandFor(podObject('tmp', { container: { command: ['sh'], stdin: true, stdinOnce: true, tty: true } })).userland;
    const log = collectingIO({ tty: true });
    const main = shell.runMain?.(log.io);
    const { io, result } = collectingIO({ tty: true });
    const stdin = typist(
      () => result().stdout,
      [
        { after: '/ # ', keys: 'hostname\r' },
        { after: 'tmp\r\n/ # ', keys: 'exit\r' },
      ],
    );
    expect(await shell.attach({ ...io, stdin })).toBe(0);
    expect(await main).toBe(0);
    expect(result().stdout).toBe('/ # hostname\r\ntmp\r\n/ # exit\r\n');
    // The main process's output is the container's log as well.
    expect(log.result().stdout).toBe(result().stdout);
  });

  it('attach shows the output of a running main process from then on, and waits when none runs', async () => {
    const { userland, clock } = userlandFor(podObject('t', { container: { command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'] } }));
    const stop = new AbortController();
    const main = userland.runMain?.(collectingIO({ signal: stop.signal }).io);
    const detach = new AbortController();
    const attached = collectingIO({ signal: detach.signal });
    const session = userland.attach(attached.io);
    await eventually(() => expect(clock.pendingTimers).toBe(1));
    clock.advance(5_000);
    await eventually(() => expect(attached.result().stdout).toBe('tick\n'));
    detach.abort();
    expect(await session).toBeUndefined();
    stop.abort();
    await main;
    const idle = userlandFor(podObject('s', { container: { command: ['sleep', '3600'] } })).userland;
    const controller = new AbortController();
    const waiting = idle.attach(collectingIO({ signal: controller.signal }).io);
    controller.abort();
    expect(await waiting).toBeUndefined();
  });
});

describe('the factory', () => {
  it('reads nothing until the first exec (an idle container costs nothing)', async () => {
    const calls: string[] = [];
    const counting: ClusterReader = {
      get: async (resource, _ns, name) => {
        calls.push(`get ${resource}/${name}`);
        return undefined;
      },
      list: async (resource) => {
        calls.push(`list ${resource}`);
        return [];
      },
    };
    const pod = podObject('idle', { container: { envFrom: [{ configMapRef: { name: 'c' } }] } });
    const { userland } = userlandFor(pod, counting);
    expect(calls).toEqual([]);
    await run(userland, ['true']);
    expect(calls.length).toBeGreaterThan(0);
    const after = calls.length;
    await run(userland, ['true']);
    expect(calls.length).toBe(after);
  });

  it('gives the same output for the same pod and commands (deterministic)', async () => {
    const script = 'sleep 1 & ps; date; ls -la /; env; id; cat /etc/hosts; echo $$ $!';
    const reader = objectReader([
      { kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { clusterIP: '10.96.4.2', ports: [{ port: 80 }] } },
    ]);
    const once = async () => {
      const { userland } = userlandFor(podObject('p'), reader, 'main', createUserlandFactory());
      return [await sh(userland, script), await run(userland, ['ps'])];
    };
    const first = await once();
    expect(first[0]!.stdout).toContain('WEB_SERVICE_HOST=10.96.4.2\n');
    expect(await once()).toEqual(first);
  });

  it('names a container the pod does not have', () => {
    expect(() => userlandFor(podObject('p'), objectReader([]), 'nope')).toThrow('container nope is not in pod default/p');
  });

  it('forgets a deleted pod’s emptyDirs', async () => {
    const factory = createUserlandFactory();
    const pod = podObject('p', { spec: { volumes: [{ name: 'cache', emptyDir: {} }] }, container: { volumeMounts: [{ name: 'cache', mountPath: '/cache' }] } });
    await sh(userlandFor(pod, objectReader([]), 'main', factory).userland, 'touch /cache/x');
    expect((await run(userlandFor(pod, objectReader([]), 'main', factory).userland, ['ls', '/cache'])).stdout).toBe('x\n');
    factory.forgetPod(pod.metadata.uid);
    expect((await run(userlandFor(pod, objectReader([]), 'main', factory).userland, ['ls', '/cache'])).stdout).toBe('');
  });
});

describe('the main process', () => {
  it('runs the container command: its output is the log, its status the exit code', async () => {
    const echo = userlandFor(podObject('job', { container: { command: ['echo', 'hi'] } })).userland;
    const { io, result } = collectingIO();
    expect(await echo.runMain?.(io)).toBe(0);
    expect(result().stdout).toBe('hi\n');
    const failing = userlandFor(podObject('f', { container: { command: ['sh', '-c', 'echo $$$$; exit 3'] } })).userland;
    const failed = collectingIO();
    expect(await failing.runMain?.(failed.io)).toBe(3);
    // The kubelet turns `$$` into `$`: the shell then prints its pid, 1.
    expect(failed.result().stdout).toBe('1\n');
    const expanded = userlandFor(
      podObject('e', { container: { command: ['echo'], args: ['$(GREETING) world'], env: [{ name: 'GREETING', value: 'hello' }] } }),
    ).userland;
    const said = collectingIO();
    await expanded.runMain?.(said.io);
    expect(said.result().stdout).toBe('hello world\n');
  });

  it('ticks on the cluster clock until the container stops', async () => {
    const { userland, clock } = userlandFor(podObject('ticker', { container: { command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'] } }));
    const controller = new AbortController();
    const { io, result } = collectingIO({ signal: controller.signal });
    const running = userland.runMain?.(io);
    await eventually(() => expect(result().stdout).toBe('tick\n'));
    for (let ticks = 2; ticks <= 3; ticks++) {
      await eventually(() => expect(clock.pendingTimers).toBe(1));
      clock.advance(5_000);
      await eventually(() => expect(result().stdout).toBe('tick\n'.repeat(ticks)));
    }
    controller.abort();
    expect(await running).toBe(130);
  });

  it('waits for the first attach with stdinOnce (kubectl run -i), at most 60 s of cluster time', async () => {
    const { userland, clock } = userlandFor(podObject('once', { container: { command: ['echo', 'hi'], stdin: true, stdinOnce: true } }));
    const { io, result } = collectingIO();
    const main = userland.runMain?.(io);
    await eventually(() => expect(clock.pendingTimers).toBe(1));
    clock.advance(59_999);
    expect(result().stdout).toBe('');
    clock.advance(1);
    expect(await main).toBe(0);
    expect(result().stdout).toBe('hi\n');
  });

  it('serves until stopped for server images, and fails to start a missing binary', async () => {
    const controller = new AbortController();
    const nginx = userlandFor(podObject('web', { image: 'nginx' })).userland.runMain?.(collectingIO({ signal: controller.signal }).io);
    controller.abort();
    expect(await nginx).toBe(0);
    const { io, result } = collectingIO();
    expect(await userlandFor(podObject('bad', { container: { command: ['nope'] } })).userland.runMain?.(io)).toBe(128);
    expect(result().stderr).toBe(
      'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "nope": executable file not found in $PATH: unknown\n',
    );
  });
});

describe('stdin shared by a session and its commands', () => {
  it('keeps the line typed after ^C stopped a command that was reading', async () => {
    const { userland } = userlandFor(podObject('web'));
    const { io, result } = collectingIO({ tty: true });
    const screen = () => result().stdout;
    const stdin = typist(screen, [
      { after: '/ # ', keys: 'cat\r' },
      { after: 'cat\r\n', keys: 'typed into cat\r' },
      { after: 'typed into cat\r\ntyped into cat\r\n', keys: '\x03' },
      { after: '^C\r\n/ # ', keys: 'echo after\r' },
      { after: 'after\r\n/ # ', keys: 'exit\r' },
    ]);
    expect(await userland.exec(['sh'], { ...io, stdin })).toBe(0);
    expect(screen()).toBe('/ # cat\r\ntyped into cat\r\ntyped into cat\r\n^C\r\n/ # echo after\r\nafter\r\n/ # exit\r\n');
  });
});

describe('an unreachable API server', () => {
  it('fails the exec, retries the build on the next one, and keeps volume files when a sync fails', async () => {
    let reachable = false;
    const config = { kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { k: 'v1' } };
    const inner = objectReader([config]);
    const flaky: ClusterReader = {
      get: (...args) => (reachable ? inner.get(...args) : Promise.reject(new Error('connection refused'))),
      list: (...args) => (reachable ? inner.list(...args) : Promise.reject(new Error('connection refused'))),
    };
    const pod = podObject('p', { spec: { volumes: [{ name: 'c', configMap: { name: 'c' } }] }, container: { volumeMounts: [{ name: 'c', mountPath: '/c' }] } });
    const { userland, clock } = userlandFor(pod, flaky);
    await expect(run(userland, ['cat', '/c/k'])).rejects.toThrow('connection refused');
    reachable = true;
    expect((await run(userland, ['cat', '/c/k'])).stdout).toBe('v1');
    reachable = false;
    clock.advance(61_000);
    expect((await run(userland, ['cat', '/c/k'])).stdout).toBe('v1');
  });
});
