import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../test/support/eventually.js';
import { Supervisor } from './supervisor.js';

describe('Supervisor.kill', () => {
  let dir: string;
  let supervisor: Supervisor;

  afterEach(async () => {
    await supervisor.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-supervisor-'));
    const notes: string[] = [];
    supervisor = new Supervisor({ logDir: dir, notify: (m) => notes.push(m), initialBackoffMs: 50 });
    supervisor.add({ name: 'sleeper', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
    supervisor.start('sleeper');
    return notes;
  };

  it('SIGKILLs the process as a crash would, and the supervisor restarts it after its backoff', async () => {
    const notes = start();
    const before = supervisor.status()[0]!;
    const killed = supervisor.kill('sleeper');
    expect(killed).toMatchObject({ name: 'sleeper', state: 'running', pid: before.pid, restartInMs: 50 });
    await eventually(() => {
      const after = supervisor.status()[0]!;
      expect(after).toMatchObject({ state: 'running', restarts: 1, lastExit: { signal: 'SIGKILL' } });
      expect(after.pid).not.toBe(before.pid);
    });
    expect(notes).toEqual([expect.stringMatching(/^sleeper was killed by SIGKILL; restarting in 0\.1s \(restart #1\)$/)]);
  });

  it('refuses to kill a stopped component', async () => {
    start();
    await supervisor.stop('sleeper');
    expect(() => supervisor.kill('sleeper')).toThrow(/sleeper is not running \(stopped\)/);
  });
});

describe('Supervisor output', () => {
  let dir: string;
  let supervisor: Supervisor;

  afterEach(async () => {
    await supervisor.stopAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends what a component writes to its log file and hands on each line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-supervisor-'));
    const lines: string[] = [];
    supervisor = new Supervisor({ logDir: dir, notify: () => undefined, onOutput: (name, line) => lines.push(`${name}: ${line}`) });
    const script =
      'process.stdout.write(\'{"msg":"one"}\\n{"msg":\'); setTimeout(() => process.stdout.write(\'"two"}\\n\'), 20); console.error(\'oops\'); setInterval(() => {}, 1000)';
    supervisor.add({ name: 'talker', command: process.execPath, args: ['-e', script] });
    supervisor.start('talker');
    await eventually(() => expect([...lines].sort()).toEqual(['talker: oops', 'talker: {"msg":"one"}', 'talker: {"msg":"two"}']));
    await eventually(() => expect(readFileSync(join(dir, 'talker.log'), 'utf8').split('\n').sort()).toEqual(['', 'oops', '{"msg":"one"}', '{"msg":"two"}']));
  });
});

describe('Supervisor log files', () => {
  it('says so when a log file cannot be written, and keeps supervising', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-supervisor-'));
    const notes: string[] = [];
    const supervisor = new Supervisor({ logDir: dir, notify: (m) => notes.push(m) });
    rmSync(dir, { recursive: true, force: true });
    supervisor.add({ name: 'orphan-log', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
    supervisor.start('orphan-log');
    try {
      await eventually(() => expect(notes).toEqual([expect.stringMatching(/^orphan-log: cannot write its log file: ENOENT/)]));
      expect(supervisor.status()[0]).toMatchObject({ name: 'orphan-log', state: 'running' });
    } finally {
      await supervisor.stopAll();
    }
  });
});
