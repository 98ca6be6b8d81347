import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLogWriter, backupName } from './writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-'));
  dirs.push(dir);
  return dir;
};

describe('the audit log writer', () => {
  it('writes queued lines in order, after the caller returns', async () => {
    const path = join(folder(), 'audit.log');
    const writer = new AuditLogWriter({ path });
    for (let i = 0; i < 100; i++) writer.write(`line ${i}\n`);
    expect(readFileSync(path, 'utf8')).toBe(''); // nothing written on the caller's turn
    await writer.close();
    expect(readFileSync(path, 'utf8').split('\n').slice(0, 3)).toEqual(['line 0', 'line 1', 'line 2']);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(101);
  });

  it('rotates past maxsize and keeps maxbackup old files', async () => {
    const dir = folder();
    const path = join(dir, 'audit.log');
    const writer = new AuditLogWriter({ path, maxSizeMb: 1, maxBackups: 2 });
    const line = `${'x'.repeat(600 * 1024)}\n`;
    for (let i = 0; i < 5; i++) {
      writer.write(line);
      await writer.drained(); // one batch per line, so each may rotate
    }
    await writer.close();
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(3);
    expect(files).toContain('audit.log');
    expect(files.filter((f) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f))).toHaveLength(2);
  });

  it('names backups as lumberjack does', () => {
    expect(backupName('/var/log/audit.log', new Date(Date.UTC(2026, 10, 27, 8, 1, 2, 345)))).toBe('/var/log/audit-2026-11-27T08-01-02.345.log');
  });
});
