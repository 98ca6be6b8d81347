import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeScratchState, sweepAbandonedState } from './scratch-state.js';

describe('the state folders of clusters without --data-dir', () => {
  let folder: string;
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("are named after their owner's pid and removed by the next start once the owner is gone", () => {
    folder = mkdtempSync(join(tmpdir(), 'kubesim-scratch-'));
    // A pid that was a process and is no longer one.
    const gonePid = spawnSync(process.execPath, ['-e', '']).pid;
    const abandoned = join(folder, `kubesim-state-${gonePid}-abc123`);
    const someoneElse = join(folder, `kubesim-state-${process.ppid}-def456`);
    const notOurs = join(folder, 'kubesim-state-old-style');
    for (const dir of [abandoned, someoneElse, notOurs]) mkdirSync(join(dir, 'pki'), { recursive: true });

    const mine = makeScratchState(folder);

    expect(basename(mine)).toMatch(new RegExp(`^kubesim-state-${process.pid}-`));
    expect(existsSync(abandoned)).toBe(false);
    expect(readdirSync(folder).sort()).toEqual([basename(someoneElse), basename(mine), basename(notOurs)].sort());
    expect(sweepAbandonedState(folder)).toEqual([]);
  });
});
