/**
 * untilSignal in a supervised process: whether the supervisor dies after the process set up
 * its cancellation or before (while it was still starting), the process learns it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/support/eventually.js';

const SIGNALS_JS = join(import.meta.dirname, '../dist/cli/signals.js');
const dir = mkdtempSync(join(tmpdir(), 'kubesim-signals-'));

/** A child that calls untilSignal and writes what its signal says to `report`. Its parent spawns
 * it with an IPC channel and exits when the child says "go": after the child's untilSignal, or
 * (`late`) before it, the child waiting until its channel has closed. */
function orphanChild(report: string, late: boolean): void {
  const child = `
    import { writeFileSync } from 'node:fs';
    writeFileSync(${JSON.stringify(`${report}.pid`)}, String(process.pid));
    const { untilSignal } = await import(${JSON.stringify(SIGNALS_JS)});
    const late = ${late};
    if (late) {
      process.send('go');
      while (process.connected) await new Promise((r) => setTimeout(r, 10));
    }
    const { signal } = untilSignal();
    if (!late) process.send('go');
    // Work in progress keeps a component alive; here a timer, ended with the report.
    const work = setInterval(() => {}, 1000);
    const write = () => {
      writeFileSync(${JSON.stringify(report)}, String(signal.reason?.message));
      clearInterval(work);
    };
    if (signal.aborted) write();
    else signal.addEventListener('abort', write);`;
  const parent = `
    import { spawn } from 'node:child_process';
    const child = spawn(process.execPath, ['--input-type=module', '-e', ${JSON.stringify(child)}], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('message', () => process.exit(0));`;
  spawn(process.execPath, ['--input-type=module', '-e', parent], { stdio: 'inherit' });
}

describe('untilSignal in a process whose supervisor goes away', () => {
  afterAll(() => {
    // A child that missed its signal would wait forever: end it.
    for (const late of [false, true]) {
      try {
        process.kill(Number(readFileSync(join(dir, `late-${late}.pid`), 'utf8')), 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['after it set up its cancellation', false],
    ['before it set up its cancellation (while it was starting)', true],
  ])('aborts when the supervisor dies %s', async (_when, late) => {
    const report = join(dir, `late-${late}`);
    orphanChild(report, late);
    await eventually(() => expect(readFileSync(report, 'utf8')).toBe('the supervising process went away'));
  });
});
