import { describe, expect, it } from 'vitest';
import { podObject, run, sh, userlandFor } from '../../../test/support/userland.js';

const busybox = () => userlandFor(podObject('web-0')).userland;
const debian = () => userlandFor(podObject('web-0', { image: 'nginx:1.27' })).userland;

describe('shell syntax', () => {
  it('runs lists, and-or lists and exit statuses', async () => {
    const userland = busybox();
    expect((await sh(userland, 'echo a; false || echo b; true && echo c; false && echo no')).stdout).toBe('a\nb\nc\n');
    expect((await sh(userland, 'false; echo $?')).stdout).toBe('1\n');
    expect((await sh(userland, 'exit 3')).status).toBe(3);
    expect((await sh(userland, '! true')).status).toBe(1);
    expect((await sh(userland, 'true; exit')).status).toBe(0);
  });

  it('expands quotes, escapes, parameters and substitutions', async () => {
    const userland = busybox();
    const script = `x='a  b'; echo $x "$x" '$x' \\$x \${x} \${unset:-dflt} \${x:+set} "\${#x}" $(echo sub) \`echo bq\` $((1 + 2 * 3))`;
    expect((await sh(userland, script)).stdout).toBe('a b a  b $x $x a b dflt set 4 sub bq 7\n');
    expect((await sh(userland, 'echo "$0 $1 $# $@"', {})).stdout).toBe('sh  0 \n');
    expect((await run(userland, ['sh', '-c', 'echo "$0|$1|$2|$#"', 'name', 'one', 'two'])).stdout).toBe('name|one|two|2\n');
    expect((await sh(userland, 'set -- "a b" c; for w in "$@"; do echo "[$w]"; done')).stdout).toBe('[a b]\n[c]\n');
  });

  it('globs against the filesystem', async () => {
    const userland = busybox();
    expect((await sh(userland, 'mkdir /g && touch /g/a.txt /g/b.txt /g/c.log && echo /g/*.txt; echo /g/*.none')).stdout).toBe('/g/a.txt /g/b.txt\n/g/*.none\n');
  });

  it('pipes, and stops the writer when the reader is done', async () => {
    const userland = busybox();
    expect((await sh(userland, 'printf "b\\na\\nb\\n" | sort | uniq -c')).stdout).toBe('      1 a\n      2 b\n');
    expect((await sh(userland, 'while true; do echo y; done | head -n 2')).stdout).toBe('y\ny\n');
    expect((await sh(userland, 'echo hi | grep -q hi; echo $?')).stdout).toBe('0\n');
  });

  it('redirects to files, appends, reads, duplicates descriptors', async () => {
    const userland = busybox();
    const result = await sh(userland, 'echo one > /tmp/f; echo two >> /tmp/f; cat < /tmp/f; ls /nope 2>&1 | wc -l; ls /nope 2>/dev/null; echo $?');
    expect(result.stdout).toBe('one\ntwo\n1\n1\n');
    expect(result.stderr).toBe('');
    expect((await sh(userland, 'cat /tmp/f')).stdout).toBe('one\ntwo\n');
    expect((await sh(userland, 'echo x > /nodir/f')).stderr).toBe("sh: can't create /nodir/f: No such file or directory\n");
  });

  it('runs if, while, until, for, break and continue', async () => {
    const userland = busybox();
    const script = `
      i=0
      while [ $i -lt 5 ]; do
        i=$((i+1))
        if [ $i -eq 2 ]; then continue; elif [ $i -eq 4 ]; then break; else echo "i=$i"; fi
      done
      until [ $i -eq 0 ]; do i=$((i-1)); done; echo "end $i"
      for f in x y; do echo $f; done`;
    expect((await sh(userland, script)).stdout).toBe('i=1\ni=3\nend 0\nx\ny\n');
  });

  it('reports syntax errors in the dialect of the image', async () => {
    expect(await sh(busybox(), 'if true; then echo')).toMatchObject({ status: 2, stderr: 'sh: syntax error: unexpected end of file (expecting "fi")\n' });
    expect(await sh(busybox(), 'echo ;; fi')).toMatchObject({ status: 2 });
    expect(await sh(debian(), 'fi')).toMatchObject({ status: 2, stderr: 'sh: 1: Syntax error: "fi" unexpected\n' });
    expect(await run(debian(), ['bash', '-c', 'then'])).toMatchObject({ status: 2, stderr: "bash: line 1: syntax error near unexpected token `then'\n" });
  });

  it('answers unknown commands as each shell does, with 127', async () => {
    expect(await sh(busybox(), 'x')).toMatchObject({ status: 127, stderr: 'sh: x: not found\n' });
    expect(await run(busybox(), ['/bin/sh', '-c', 'x'])).toMatchObject({ status: 127, stderr: '/bin/sh: x: not found\n' });
    expect(await sh(debian(), 'echo ok; x')).toMatchObject({ status: 127, stderr: 'sh: 1: x: not found\n' });
    expect(await run(debian(), ['bash', '-c', 'x'])).toMatchObject({ status: 127, stderr: 'bash: line 1: x: command not found\n' });
  });

  it('runs executable scripts and refuses files without the execute bit', async () => {
    const userland = busybox();
    await sh(userland, 'printf "echo from script \\$1\\nexit 4\\n" > /s.sh');
    expect(await sh(userland, '/s.sh')).toMatchObject({ status: 126, stderr: 'sh: /s.sh: Permission denied\n' });
    expect(await sh(userland, 'sh /s.sh arg')).toMatchObject({ status: 4, stdout: 'from script arg\n' });
  });

  it('keeps cd, exports and assignments in the shell, and subshells apart', async () => {
    const userland = busybox();
    expect((await sh(userland, 'cd /etc; pwd; (cd /; pwd); pwd; A=1; export B=2; env | grep -E "^(A|B)="; C=3 env | grep ^C=')).stdout).toBe(
      '/etc\n/\n/etc\nB=2\nC=3\n',
    );
    expect(await sh(userland, 'cd /nope')).toMatchObject({ status: 2, stderr: "sh: cd: can't cd to /nope: No such file or directory\n" });
    expect((await sh(userland, 'printf "a b c\\n" | { read x rest; echo "$x|$rest"; }')).stdout).toBe('a|b c\n');
  });
});

describe('set -e', () => {
  it('ends the shell at an untested failure, not at a tested one', async () => {
    const userland = busybox();
    const script = 'if false; then :; fi; false || true; false && true; ! true; while false; do :; done; echo reached; false; echo not reached';
    expect(await sh(userland, `set -e; ${script}`)).toMatchObject({ status: 1, stdout: 'reached\n' });
    expect(await run(userland, ['sh', '-ec', 'ls /nope; echo no'])).toMatchObject({ status: 1, stdout: '' });
    expect(await sh(userland, 'set -e; set +e; false; echo on')).toMatchObject({ status: 0, stdout: 'on\n' });
    expect(await sh(userland, 'false; echo without -e')).toMatchObject({ status: 0, stdout: 'without -e\n' });
  });
});
