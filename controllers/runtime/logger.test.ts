import { describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';
import { createLogger, isLogLevel, type LoggerOptions, silentLogger } from './logger.js';
import type { Logger } from './types.js';

function capture(options: Partial<LoggerOptions> = {}) {
  const lines: string[] = [];
  const clock = new FakeClock(1_700_000_000_000);
  const logger: Logger = createLogger({
    component: 'test',
    clock,
    destination: { write: (line: string) => lines.push(line) },
    ...options,
  });
  const entries = (): Array<Record<string, unknown>> => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, entries, clock };
}

describe('createLogger', () => {
  it('writes one JSON line per entry with the level by name, time, component, fields and msg', () => {
    const { logger, lines, entries } = capture();
    logger.info({ replicas: 3 }, 'Scaled');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('}\n')).toBe(true);
    expect(entries()[0]).toEqual({ time: 1_700_000_000_000, level: 'info', component: 'test', replicas: 3, msg: 'Scaled' });
  });

  it('names every level as the flags do', () => {
    const { logger, entries } = capture({ level: 'debug' });
    logger.debug({}, 'd');
    logger.info({}, 'i');
    logger.warn({}, 'w');
    logger.error({}, 'e');
    expect(entries().map((e) => e.level)).toEqual(['debug', 'info', 'warn', 'error']);
  });

  it('takes time from its clock, so a cluster clock moves it', () => {
    const { logger, entries, clock } = capture();
    logger.info({}, 'before');
    clock.advance(90_000);
    logger.info({}, 'after');
    expect(entries().map((e) => e.time)).toEqual([1_700_000_000_000, 1_700_000_090_000]);
  });

  it('drops entries below its level (info by default)', () => {
    const { logger, entries } = capture();
    logger.debug({}, 'hidden');
    logger.warn({}, 'shown');
    logger.error({}, 'shown too');
    expect(entries().map((e) => e.level)).toEqual(['warn', 'error']);
    const quiet = capture({ level: 'silent' });
    quiet.logger.error({}, 'nothing');
    expect(quiet.lines).toEqual([]);
    const chatty = capture({ level: 'debug' });
    chatty.logger.debug({}, 'now shown');
    expect(chatty.lines).toHaveLength(1);
  });

  it('adds child bindings to every line, and fields cannot forge time, level or msg', () => {
    const { logger, entries, lines } = capture();
    const child = logger.child({ controller: 'rs' }).child({ key: 'default/web' });
    child.info({ level: 'error', msg: 'forged', time: 0 }, 'real');
    logger.info({}, 'parent');
    expect(entries()[0]).toEqual({ level: 'info', msg: 'real', time: 1_700_000_000_000, component: 'test', controller: 'rs', key: 'default/web' });
    expect(lines[0]?.match(/"level"/g)).toHaveLength(1);
    expect(entries()[1]).toEqual({ level: 'info', msg: 'parent', time: 1_700_000_000_000, component: 'test' });
  });

  it('lets a child name another component', () => {
    const { logger, entries } = capture();
    logger.child({ component: 'event-recorder' }).warn({}, 'dropped');
    expect(entries()[0]).toMatchObject({ component: 'event-recorder', msg: 'dropped' });
  });

  it('writes errors with their type, message, stack, own fields and cause, under err or any key', () => {
    const { logger, entries } = capture();
    const err = Object.assign(new Error('conflict', { cause: new TypeError('inner') }), { code: 409 });
    logger.error({ err, other: new RangeError('far') }, 'Update failed');
    const written = entries()[0]?.err as Record<string, unknown>;
    expect(written).toMatchObject({ type: 'Error', message: 'conflict', code: 409, cause: { type: 'TypeError', message: 'inner' } });
    expect(written.stack).toContain('conflict');
    expect(entries()[0]?.other).toMatchObject({ type: 'RangeError', message: 'far' });
  });

  it('never throws on fields JSON cannot hold', () => {
    const { logger, entries } = capture();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    logger.info({ cyclic, big: 1n }, 'still logged');
    logger.info({ big: 2n }, 'bigint');
    expect(entries()[0]).toMatchObject({ level: 'info', msg: 'still logged', cyclic: { self: '[Circular]' }, big: '1' });
    expect(entries()[1]).toMatchObject({ big: '2' });
  });
});

describe('isLogLevel', () => {
  it('accepts the level names and nothing else', () => {
    expect(['debug', 'info', 'warn', 'error', 'silent'].every(isLogLevel)).toBe(true);
    expect(isLogLevel('fatal')).toBe(false);
    expect(isLogLevel('toString')).toBe(false);
  });
});

describe('silentLogger', () => {
  it('accepts everything and writes nothing', () => {
    expect(() => silentLogger.child({ a: 1 }).error({ err: new Error('x') }, 'quiet')).not.toThrow();
    expect(silentLogger.child({})).toBe(silentLogger);
  });
});
