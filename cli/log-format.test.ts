import { describe, expect, it } from 'vitest';
import { createTerminalLog, formatLogEntry, parseLogLine, useColour } from './log-format.js';

/** 03:04:05 in this machine's time zone, as the terminal shows it. */
const AT = new Date(2026, 0, 2, 3, 4, 5).getTime();
const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 'info', time: AT, component: 'replicaset-controller', msg: 'Scaled', ...fields });

function terminal(threshold: Parameters<typeof createTerminalLog>[0]['threshold'], colour = false) {
  const printed: string[] = [];
  const print = createTerminalLog({ out: { write: (text: string) => printed.push(text) }, threshold, colour });
  return { print, printed };
}

describe('formatLogEntry', () => {
  it('makes a JSON log line a short HH:MM:SS component level message line', () => {
    expect(formatLogEntry(parseLogLine(line({}))!, { colour: false })).toBe('03:04:05 replicaset-controller info  Scaled');
  });

  it("adds an error's message after the entry's own", () => {
    const entry = parseLogLine(line({ level: 'error', msg: 'Update failed', err: { type: 'Error', message: 'conflict', stack: '…' } }))!;
    expect(formatLogEntry(entry, { colour: false })).toBe('03:04:05 replicaset-controller error Update failed: conflict');
  });

  it('colours warn yellow and error red, label and message; info only dims its label', () => {
    const warn = formatLogEntry(parseLogLine(line({ level: 'warn', msg: 'slow' }))!, { colour: true });
    expect(warn).toBe('\x1b[2m03:04:05\x1b[0m replicaset-controller \x1b[33mwarn \x1b[0m \x1b[33mslow\x1b[0m');
    const error = formatLogEntry(parseLogLine(line({ level: 'error', msg: 'down' }))!, { colour: true });
    expect(error).toBe('\x1b[2m03:04:05\x1b[0m replicaset-controller \x1b[1;31merror\x1b[0m \x1b[31mdown\x1b[0m');
    const info = formatLogEntry(parseLogLine(line({}))!, { colour: true });
    expect(info).toBe('\x1b[2m03:04:05\x1b[0m replicaset-controller \x1b[2minfo \x1b[0m Scaled');
  });
});

describe('parseLogLine', () => {
  it('reads JSON objects only', () => {
    expect(parseLogLine('{"msg":"x"}')).toEqual({ msg: 'x' });
    for (const other of ['Error: boom', '    at main (file.js:1:1)', '{not json', '[1,2]', '']) expect(parseLogLine(other)).toBeUndefined();
  });
});

describe('createTerminalLog', () => {
  it('prints entries at or above the threshold, one short line each', () => {
    const { print, printed } = terminal('warn');
    print('replicaset', `${line({ level: 'info' })}\n`);
    print('replicaset', JSON.stringify({ time: AT, msg: 'level not first', level: 'debug' }));
    print('replicaset', line({ level: 'warn', msg: 'slow' }));
    print('replicaset', line({ level: 'error', msg: 'down' }));
    print('replicaset', line({ level: 'fatal', msg: 'gone' }));
    expect(printed).toEqual([
      '03:04:05 replicaset-controller warn  slow\n',
      '03:04:05 replicaset-controller error down\n',
      '03:04:05 replicaset-controller fatal gone\n',
    ]);
  });

  it('names the source when the entry has no component, and prints other output as it is after it', () => {
    const { print, printed } = terminal('info');
    print('scheduler', JSON.stringify({ level: 'info', time: AT, msg: 'started' }));
    print('scheduler', 'TypeError: x is undefined');
    print('scheduler', '');
    expect(printed).toEqual(['03:04:05 scheduler info  started\n', 'scheduler | TypeError: x is undefined\n']);
  });

  it('prints nothing at all when silent', () => {
    const { print, printed } = terminal('silent');
    print('scheduler', line({ level: 'error' }));
    print('scheduler', 'TypeError: x is undefined');
    expect(printed).toEqual([]);
  });
});

describe('useColour', () => {
  it('colours a terminal unless NO_COLOR is set, and never a pipe', () => {
    expect(useColour({ isTTY: true }, {})).toBe(true);
    expect(useColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColour({}, {})).toBe(false);
  });
});
