import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createLogger, type LoggerOptions, silentLogger } from './logger.js';

function capture(options: Partial<LoggerOptions> = {}) {
  const lines: string[] = [];
  const logger = createLogger({
    component: 'test',
    clock: new FakeClock(1_700_000_000_000),
    destination: { write: (line: string) => lines.push(line) },
    ...options,
  });
  const entries = (): Array<Record<string, unknown>> => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, entries };
}

describe('createLogger', () => {
  it('writes one JSON line per entry with time, level, component, fields and msg', () => {
    const { logger, lines, entries } = capture();
    logger.info({ replicas: 3 }, 'Scaled');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    expect(entries()[0]).toEqual({ time: 1_700_000_000_000, level: 'info', component: 'test', replicas: 3, msg: 'Scaled' });
    expect(Object.keys(entries()[0] ?? {})).toEqual(['time', 'level', 'component', 'replicas', 'msg']);
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
    const { logger, entries } = capture();
    const child = logger.child({ controller: 'rs' }).child({ key: 'default/web' });
    child.info({ level: 'error', msg: 'forged', time: 0 }, 'real');
    expect(entries()[0]).toMatchObject({ level: 'info', msg: 'real', time: 1_700_000_000_000, controller: 'rs', key: 'default/web' });
  });

  it('writes errors with their type, message, stack, own fields and cause', () => {
    const { logger, entries } = capture();
    const err = Object.assign(new Error('conflict', { cause: new TypeError('inner') }), { code: 409 });
    logger.error({ err }, 'Update failed');
    const written = entries()[0]?.err as Record<string, unknown>;
    expect(written).toMatchObject({ type: 'Error', message: 'conflict', code: 409, cause: { type: 'TypeError', message: 'inner' } });
    expect(written.stack).toContain('conflict');
  });

  it('never throws on fields JSON cannot hold', () => {
    const { logger, entries } = capture();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    logger.info({ cyclic, big: 1n }, 'still logged');
    logger.info({ big: 2n }, 'bigint');
    expect(entries()[0]).toMatchObject({ level: 'info', msg: 'still logged' });
    expect(entries()[0]?.logError).toBeTypeOf('string');
    expect(entries()[1]).toMatchObject({ big: '2' });
  });
});

describe('silentLogger', () => {
  it('accepts everything and writes nothing', () => {
    expect(() => silentLogger.child({ a: 1 }).error({ err: new Error('x') }, 'quiet')).not.toThrow();
    expect(silentLogger.child({})).toBe(silentLogger);
  });
});
