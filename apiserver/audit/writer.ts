/**
 * The audit log backend (--audit-log-path): lines are queued in memory and written in batches
 * on a later turn of the event loop, so a request never waits on the disk. `-` writes to
 * standard output. A file is rotated as kube-apiserver's (lumberjack) is: past
 * --audit-log-maxsize megabytes it is renamed `<name>-<UTC time>.<ext>` and a new one started,
 * keeping at most --audit-log-maxbackup old files no older than --audit-log-maxage days.
 */
import { closeSync, openSync, readdirSync, renameSync, statSync, unlinkSync, write } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export interface AuditLogOptions {
  /** A file, or `-` for standard output. */
  path: string;
  /** Megabytes before the file is rotated; 0 (the default) never rotates. */
  maxSizeMb?: number;
  /** Rotated files kept (0: all). */
  maxBackups?: number;
  /** Days a rotated file is kept (0: no limit). */
  maxAgeDays?: number;
}

/** Queued bytes beyond which new events are dropped (and counted) rather than held: a disk
 * slower than the request rate must not grow the heap without bound. */
const MAX_QUEUED_BYTES = 64 * 1024 * 1024;

export class AuditLogWriter {
  private queue: string[] = [];
  private queuedBytes = 0;
  private writing = false;
  private scheduled = false;
  private fd: number | undefined;
  private size = 0;
  private idle: Array<() => void> = [];
  /** Events dropped because the queue was full. */
  dropped = 0;

  constructor(private readonly options: AuditLogOptions) {
    if (options.path !== '-') this.open();
  }

  /** write queues one line (ending in a newline). */
  write(line: string): void {
    if (this.queuedBytes > MAX_QUEUED_BYTES) {
      this.dropped++;
      return;
    }
    this.queue.push(line);
    this.queuedBytes += line.length;
    if (!this.scheduled && !this.writing) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** drained resolves once every queued line is written. */
  drained(): Promise<void> {
    if (!this.writing && !this.scheduled && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async close(): Promise<void> {
    await this.drained();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return this.settle();
    const batch = this.queue.join('');
    this.queue = [];
    this.queuedBytes = 0;
    this.writing = true;
    const done = (err?: Error | null) => {
      this.writing = false;
      if (err) process.emitWarning(`audit log: ${err.message}`);
      if (this.queue.length > 0) this.flush();
      else this.settle();
    };
    if (this.options.path === '-') {
      process.stdout.write(batch, done);
      return;
    }
    const bytes = Buffer.from(batch);
    this.rotateIfFull(bytes.length);
    this.size += bytes.length;
    this.writeAll(bytes, 0, done);
  }

  private writeAll(bytes: Buffer, from: number, done: (err?: Error | null) => void): void {
    if (this.fd === undefined) return done();
    write(this.fd, bytes, from, bytes.length - from, null, (err, written) => {
      if (err || from + written >= bytes.length) return done(err);
      this.writeAll(bytes, from + written, done);
    });
  }

  private settle(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }

  private open(): void {
    this.fd = openSync(this.options.path, 'a', 0o600);
    this.size = statSync(this.options.path).size;
  }

  private rotateIfFull(incoming: number): void {
    const maxBytes = (this.options.maxSizeMb ?? 0) * 1024 * 1024;
    if (maxBytes <= 0 || this.size === 0 || this.size + incoming <= maxBytes) return;
    closeSync(this.fd!);
    renameSync(this.options.path, backupName(this.options.path, new Date()));
    this.open();
    pruneBackups(this.options);
  }
}

/** backupName is lumberjack's: `audit.log` → `audit-2006-01-02T15-04-05.000.log`, in UTC. */
export function backupName(path: string, at: Date): string {
  const ext = extname(path);
  const stamp = at.toISOString().slice(0, -1).replaceAll(':', '-');
  return join(dirname(path), `${basename(path, ext)}-${stamp}${ext}`);
}

/** pruneBackups removes rotated files beyond --audit-log-maxbackup or older than --audit-log-maxage. */
function pruneBackups(options: AuditLogOptions): void {
  const ext = extname(options.path);
  const prefix = `${basename(options.path, ext)}-`;
  const folder = dirname(options.path);
  const backups = readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith(ext) && name !== basename(options.path))
    .sort()
    .reverse();
  const oldest = options.maxAgeDays ? Date.now() - options.maxAgeDays * 86_400_000 : undefined;
  backups.forEach((name, i) => {
    const path = join(folder, name);
    const tooMany = options.maxBackups ? i >= options.maxBackups : false;
    if (tooMany || (oldest !== undefined && statSync(path).mtimeMs < oldest)) unlinkSync(path);
  });
}
