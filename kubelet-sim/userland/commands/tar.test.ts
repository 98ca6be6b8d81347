/** tar against the host's own tar: archives the userland writes extract with it, and archives it
 * writes extract in the userland — the round trips `kubectl cp` makes. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { podObject, run, sh, userlandFor } from '../../../test/support/userland.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'userland-tar-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('tar', () => {
  it('writes ustar archives the host tar extracts (kubectl cp pod:/path local)', async () => {
    const { userland } = userlandFor(podObject('p'));
    await sh(userland, 'mkdir -p /data/sub && echo hello > /data/a.txt && printf "x%.0s" $(seq 1 1000) > /data/sub/big');
    const result = await run(userland, ['tar', 'cf', '-', '/data']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("tar: removing leading '/' from member names\n");
    expect(result.bytes.length % 10240).toBe(0);
    const dir = tempDir();
    writeFileSync(join(dir, 'out.tar'), result.bytes);
    expect(execFileSync('tar', ['tf', join(dir, 'out.tar')], { encoding: 'utf8' })).toBe('data/\ndata/a.txt\ndata/sub/\ndata/sub/big\n');
    execFileSync('tar', ['xf', join(dir, 'out.tar'), '-C', dir]);
    expect(readFileSync(join(dir, 'data/a.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(dir, 'data/sub/big'), 'utf8')).toBe('x'.repeat(1000));
    expect(statSync(join(dir, 'data/a.txt')).mode & 0o777).toBe(0o644);
  });

  it('extracts archives the host tar writes (kubectl cp local pod:/dir), long names and gzip too', async () => {
    const dir = tempDir();
    const longName = `${'deep/'.repeat(25)}file.txt`;
    mkdirSync(join(dir, 'src', longName, '..'), { recursive: true });
    writeFileSync(join(dir, 'src', 'note.txt'), 'from host\n');
    writeFileSync(join(dir, 'src', longName), 'long\n');
    const archive = execFileSync('tar', ['cf', '-', '-C', dir, 'src']);
    const { userland } = userlandFor(podObject('p'));
    await run(userland, ['mkdir', '/dest']);
    expect(await run(userland, ['tar', '-xmf', '-', '-C', '/dest'], { stdin: archive })).toMatchObject({ status: 0, stderr: '' });
    expect((await run(userland, ['cat', '/dest/src/note.txt', `/dest/src/${longName}`])).stdout).toBe('from host\nlong\n');
    expect((await run(userland, ['tar', 'xzf', '-', '-C', '/tmp'], { stdin: gzipSync(archive) })).status).toBe(0);
    expect((await run(userland, ['cat', '/tmp/src/note.txt'])).stdout).toBe('from host\n');
    expect((await run(userland, ['tar', 'tf', '-'], { stdin: archive })).stdout).toContain('src/note.txt\n');
  });

  it('resumes a copy with tail -c +N, byte for byte (kubectl cp --retries)', async () => {
    const { userland } = userlandFor(podObject('p'));
    await sh(userland, 'mkdir /d && printf "\\377\\001binary" > /d/b');
    const whole = (await sh(userland, 'tar cf - /d 2>/dev/null')).bytes;
    const rest = (await sh(userland, 'tar cf - /d 2>/dev/null | tail -c+1025')).bytes;
    expect(Buffer.from(rest)).toEqual(Buffer.from(whole.subarray(1024)));
    expect((await sh(userland, 'head -c 2 /d/b')).bytes).toEqual(new Uint8Array([0xff, 0x01]));
  });

  it('reports a missing path and an unwritable destination', async () => {
    const { userland } = userlandFor(podObject('p'));
    expect(await run(userland, ['tar', 'cf', '-', 'nope'])).toMatchObject({ status: 1, stderr: 'tar: nope: No such file or directory\n' });
    expect(await run(userland, ['tar', 'xf', '-', '-C', '/missing'], { stdin: new Uint8Array(1024) })).toMatchObject({
      status: 2,
      stderr: "tar: can't change directory to '/missing': No such file or directory\n",
    });
  });
});
