import { describe, expect, it } from 'vitest';
import { nextReflectorState, type ReflectorOutcome, type ReflectorState } from './reflector.js';

type Expected = ReflectorState | 'impossible';

/** Every (state, outcome) pair, so a change to the machine must be made here too. */
const TABLE: Record<ReflectorState, Record<ReflectorOutcome, Expected>> = {
  listing: { listed: 'watching', expired: 'listing', failed: 'backingOff', disconnected: 'impossible', streamEnded: 'impossible', backoffDone: 'impossible', aborted: 'stopped' },
  watching: { listed: 'impossible', expired: 'listing', failed: 'backingOff', disconnected: 'reconnecting', streamEnded: 'watching', backoffDone: 'impossible', aborted: 'stopped' },
  reconnecting: { listed: 'impossible', expired: 'impossible', failed: 'impossible', disconnected: 'impossible', streamEnded: 'impossible', backoffDone: 'watching', aborted: 'stopped' },
  backingOff: { listed: 'impossible', expired: 'impossible', failed: 'impossible', disconnected: 'impossible', streamEnded: 'impossible', backoffDone: 'listing', aborted: 'stopped' },
  stopped: { listed: 'impossible', expired: 'impossible', failed: 'impossible', disconnected: 'impossible', streamEnded: 'impossible', backoffDone: 'impossible', aborted: 'impossible' },
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
