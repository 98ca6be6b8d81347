import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { silentLogger } from './logger.js';
import { nextReflectorState, Reflector, type ReflectorOutcome, type ReflectorState } from './reflector.js';
import type { Clock, ResourceClient, WatchOptions } from './types.js';

type Expected = ReflectorState | 'impossible';

/** Every (state, outcome) pair, so a change to the machine must be made here too. */
const TABLE: Record<ReflectorState, Record<ReflectorOutcome, Expected>> = {
  listing: {
    listed: 'watching',
    expired: 'listing',
    failed: 'backingOff',
    disconnected: 'impossible',
    streamEnded: 'impossible',
    backoffDone: 'impossible',
    aborted: 'stopped',
  },
  watching: {
    listed: 'impossible',
    expired: 'listing',
    failed: 'backingOff',
    disconnected: 'reconnecting',
    streamEnded: 'watching',
    backoffDone: 'impossible',
    aborted: 'stopped',
  },
  reconnecting: {
    listed: 'impossible',
    expired: 'impossible',
    failed: 'impossible',
    disconnected: 'impossible',
    streamEnded: 'impossible',
    backoffDone: 'watching',
    aborted: 'stopped',
  },
  backingOff: {
    listed: 'impossible',
    expired: 'impossible',
    failed: 'impossible',
    disconnected: 'impossible',
    streamEnded: 'impossible',
    backoffDone: 'listing',
    aborted: 'stopped',
  },
  stopped: {
    listed: 'impossible',
    expired: 'impossible',
    failed: 'impossible',
    disconnected: 'impossible',
    streamEnded: 'impossible',
    backoffDone: 'impossible',
    aborted: 'impossible',
  },
};

describe('nextReflectorState', () => {
  const cases = Object.entries(TABLE).flatMap(([state, row]) =>
    Object.entries(row).map(([outcome, expected]) => ({ state: state as ReflectorState, outcome: outcome as ReflectorOutcome, expected })),
  );

  it.each(cases)('$state --$outcome--> $expected', ({ state, outcome, expected }) => {
    if (expected === 'impossible') expect(() => nextReflectorState(state, outcome)).toThrow(/no transition/);
    else expect(nextReflectorState(state, outcome)).toBe(expected);
  });
});

describe('Reflector randomness', () => {
  /** run drives a reflector through 3 failed lists (3 backoffs) and 3 watches; returns the
   * backoff delays and watch timeouts it chose. */
  async function run(random: Random | undefined) {
    const delays: number[] = [];
    const timeouts: number[] = [];
    const abort = new AbortController();
    let lists = 0;
    const client = {
      definition: { plural: 'pods' },
      list: async () => {
        if (++lists <= 3) throw new Error('server unavailable');
        return { items: [], metadata: { resourceVersion: '1' } };
      },
      watch: (options: WatchOptions) => {
        timeouts.push(options.timeoutSeconds ?? -1);
        if (timeouts.length === 3) abort.abort();
        return (async function* () {})();
      },
    } as unknown as ResourceClient<KubeObject>;
    const clock = { now: () => 0, setTimeout: () => ({ cancel() {} }), sleep: async (ms: number) => void delays.push(ms) } as unknown as Clock;
    const sink = { replace: () => undefined, apply: () => undefined };
    await new Reflector({ client, clock, logger: silentLogger, sink, random }).run(abort.signal);
    return { delays, timeouts };
  }

  it('draws backoff and watch-timeout jitter from the Random it is given', async () => {
    const first = await run(createRandom(5));
    expect(first.delays).toHaveLength(3);
    expect(first.delays.map((d, i) => d - 500 * 2 ** i).every((j, i) => j >= 0 && j < 50 * 2 ** i)).toBe(true);
    expect(first.timeouts.every((t) => t >= 300 && t < 600)).toBe(true);
    expect(await run(createRandom(5))).toEqual(first);
    expect(await run(createRandom(6))).not.toEqual(first);
    expect((await run(undefined)).timeouts).toHaveLength(3);
  });
});
