import { describe, expect, it } from 'vitest';
import { podObject, run, START_MS, sh, userlandFor } from '../../../test/support/userland.js';

const busybox = () => userlandFor(podObject('web-0'));
const debian = () => userlandFor(podObject('web-0', { image: 'debian:12' }));

describe('commands', () => {
  it('echo and printf', async () => {
    const { userland } = busybox();
    expect((await sh(userland, 'echo -n a; echo -e "b\\tc"; echo -- -n')).stdout).toBe('ab\tc\n-- -n\n');
    expect((await sh(userland, 'printf "%s=%d;" a 1 b 2; printf "%5s|%-3s|%03d|%x|%.2f\\n" r l 7 255 3.14159')).stdout).toBe('a=1;b=2;    r|l  |007|ff|3.14\n');
  });

  it('cat, head, tail, wc, grep, sort, uniq, cut, tr, tee, seq', async () => {
    const { userland } = busybox();
    await sh(userland, 'seq 1 5 > /n; printf "Apple\\nbanana\\napple pie\\n" > /f');
    expect((await sh(userland, 'head -n 2 /n; tail -n 2 /n; tail -n +4 /n; head -3 /n | tail -1')).stdout).toBe('1\n2\n4\n5\n4\n5\n3\n');
    expect((await sh(userland, 'wc -l /n; cat /n | wc -l; wc -c < /f')).stdout).toBe('5 /n\n5\n23\n');
    expect((await sh(userland, 'grep apple /f; grep -i -c apple /f; grep -v an /f; grep -n pie /f')).stdout).toBe(
      'apple pie\n2\nApple\napple pie\n3:apple pie\n',
    );
    expect(await sh(userland, 'grep nothing /f')).toMatchObject({ status: 1, stdout: '' });
    expect(await sh(userland, 'grep x /missing')).toMatchObject({ status: 2, stderr: 'grep: /missing: No such file or directory\n' });
    expect((await sh(userland, 'echo a:b:c | cut -d: -f2; echo hello | tr a-z A-Z; echo x | tee /t >/dev/null; cat /t')).stdout).toBe('b\nHELLO\nx\n');
  });

  it('files: mkdir -p, touch, cp -r, mv, rm -rf, ls -l/-a, with busybox wording', async () => {
    const { userland } = busybox();
    expect((await sh(userland, 'mkdir -p /a/b/c && touch /a/b/c/f && cp -r /a /z && mv /z/b/c/f /z/g && ls /z /z/b/c && rm -rf /a && ls /')).stdout).toBe(
      '/z:\nb\ng\n\n/z/b/c:\nbin\ndev\netc\nhome\nlib\nproc\nroot\nrun\nsbin\nsys\ntmp\nusr\nvar\nz\n',
    );
    expect(await sh(userland, 'mkdir /z')).toMatchObject({ status: 1, stderr: "mkdir: can't create directory '/z': File exists\n" });
    expect(await sh(userland, 'rm /nope')).toMatchObject({ status: 1, stderr: "rm: can't remove '/nope': No such file or directory\n" });
    expect(await sh(userland, 'rm -f /nope')).toMatchObject({ status: 0, stderr: '' });
    expect(await sh(userland, 'rm /z')).toMatchObject({ status: 1, stderr: "rm: can't remove '/z': Is a directory\n" });
    expect(await sh(userland, 'cat /nope')).toMatchObject({ status: 1, stderr: "cat: can't open '/nope': No such file or directory\n" });
    expect(await sh(userland, 'ls /nope')).toMatchObject({ status: 1, stderr: 'ls: /nope: No such file or directory\n' });
    expect((await sh(userland, 'echo hi > /z/h; ls -la /z')).stdout).toBe(
      [
        'total 16',
        'drwxr-xr-x    3 root     root          4096 Jan  2 03:04 .',
        'drwxr-xr-x    3 root     root          4096 Jan  2 03:04 ..',
        'drwxr-xr-x    3 root     root          4096 Jan  2 03:04 b',
        '-rw-r--r--    1 root     root             0 Jan  2 03:04 g',
        '-rw-r--r--    1 root     root             3 Jan  2 03:04 h',
        '',
      ].join('\n'),
    );
  });

  it('words errors as GNU coreutils on Debian-like images', async () => {
    const { userland } = debian();
    expect(await sh(userland, 'cat /nope')).toMatchObject({ status: 1, stderr: 'cat: /nope: No such file or directory\n' });
    expect(await sh(userland, 'ls /nope')).toMatchObject({ status: 2, stderr: "ls: cannot access '/nope': No such file or directory\n" });
    expect(await sh(userland, 'rm /nope')).toMatchObject({ status: 1, stderr: "rm: cannot remove '/nope': No such file or directory\n" });
    expect(await sh(userland, 'mkdir /etc')).toMatchObject({ status: 1, stderr: "mkdir: cannot create directory '/etc': File exists\n" });
    // Debian's slim images have no procps.
    expect(await run(userland, ['ps'])).toMatchObject({ status: 126 });
  });

  it('identity and system: hostname, id, whoami, uname, date, env, printenv', async () => {
    const { userland, clock } = busybox();
    expect((await sh(userland, 'hostname; hostname -i; id; whoami; uname; uname -n')).stdout).toBe(
      'web-0\n10.244.1.7\nuid=0(root) gid=0(root) groups=0(root)\nroot\nLinux\nweb-0\n',
    );
    expect((await run(userland, ['date'])).stdout).toBe('Fri Jan  2 03:04:05 UTC 2026\n');
    clock.advance(3_600_000);
    expect((await run(userland, ['date', '+%Y-%m-%dT%H:%M:%S %s'])).stdout).toBe(`2026-01-02T04:04:05 ${START_MS / 1000 + 3600}\n`);
    expect((await run(userland, ['printenv', 'HOSTNAME', 'HOME'])).stdout).toBe('web-0\n/root\n');
    expect(await run(userland, ['printenv', 'NOPE'])).toMatchObject({ status: 1, stdout: '' });
    expect((await run(userland, ['env', 'X=1', 'printenv', 'X'])).stdout).toBe('1\n');
    const nonRoot = userlandFor(podObject('p', { spec: { securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000 } } })).userland;
    expect((await sh(nonRoot, 'id; whoami')).stdout).toBe('uid=1000 gid=3000 groups=3000,2000\n');
    expect((await sh(nonRoot, 'whoami')).stderr).toBe('whoami: unknown uid 1000\n');
  });

  it('sleep waits on the cluster clock and ends when the session goes away', async () => {
    const { userland, clock } = busybox();
    let done = false;
    const sleeping = run(userland, ['sleep', '30']).then((result) => {
      done = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(29_000);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1_000);
    expect((await sleeping).status).toBe(0);
    const controller = new AbortController();
    const aborted = run(userland, ['sleep', '1000'], { signal: controller.signal });
    controller.abort();
    expect((await aborted).status).toBe(130);
  });

  it('ps lists the main process and the exec; kill stops a background process and spares PID 1', async () => {
    const { userland } = userlandFor(podObject('p', { container: { command: ['sleep', '3600'] } }));
    const result = await sh(userland, 'sleep 100 & ps; kill $!; kill 1; echo $?; ps | wc -l');
    expect(result.stdout).toBe(
      [
        'PID   USER     TIME  COMMAND',
        '    1 root      0:00 sleep 3600',
        '    7 root      0:00 sh -c sleep 100 & ps; kill $!; kill 1; echo $?; ps | wc -l',
        '    8 root      0:00 sleep 100',
        '    9 root      0:00 ps',
        '0',
        '4',
        '',
      ].join('\n'),
    );
    expect(await sh(userland, 'kill 4242')).toMatchObject({ status: 1, stderr: "sh: can't kill pid 4242: No such process\n" });
  });

  it('test and [', async () => {
    const { userland } = busybox();
    const script =
      '[ -d /etc ] && [ -f /etc/hosts ] && [ ! -e /nope ] && [ a = a ] && [ 3 -gt 2 ] && [ -z "" ] && [ -n x ] && test 1 -eq 1 -a 2 -ne 3 && echo ok';
    expect((await sh(userland, script)).stdout).toBe('ok\n');
    expect(await sh(userland, '[ 1 -eq 1')).toMatchObject({ status: 2, stderr: '[: missing ]\n' });
  });

  it('exec of a missing binary fails as the container runtime does', async () => {
    const { userland } = busybox();
    expect(await run(userland, ['nope', 'arg'])).toEqual({
      status: 126,
      stdout: '',
      stderr: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "nope": executable file not found in $PATH: unknown\n',
      bytes: new Uint8Array(0),
    });
    expect((await run(userland, ['/bin/nope'])).stderr).toContain('exec: "/bin/nope": stat /bin/nope: no such file or directory: unknown');
    await run(userland, ['rm', '/bin/ls']);
    expect((await run(userland, ['ls'])).status).toBe(126);
  });
});

describe('ls on a terminal', () => {
  it('prints columns filled top to bottom, and one a line with -1', async () => {
    const { userland } = userlandFor(podObject('p'));
    await run(userland, ['mkdir', '-p', '/c/alpha', '/c/beta', '/c/gamma']);
    expect((await run(userland, ['ls', '/c'], { tty: true })).stdout).toBe('alpha  beta   gamma\r\n');
    expect((await run(userland, ['ls', '-1', '/c'], { tty: true })).stdout).toBe('alpha\r\nbeta\r\ngamma\r\n');
  });
});
