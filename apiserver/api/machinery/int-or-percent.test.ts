import { describe, expect, it } from 'vitest';
import { scaledValue } from './int-or-percent.js';

describe('scaledValue', () => {
  it.each([
    { value: 5, total: 10, roundUp: true, want: 5 },
    { value: '25%', total: 10, roundUp: true, want: 3 },
    { value: '25%', total: 10, roundUp: false, want: 2 },
    { value: '100%', total: 7, roundUp: false, want: 7 },
    { value: '0%', total: 7, roundUp: true, want: 0 },
    { value: '1%', total: 1, roundUp: true, want: 1 },
    { value: '1%', total: 1, roundUp: false, want: 0 },
    { value: '+50%', total: 3, roundUp: true, want: 2 },
  ])('$value of $total (roundUp $roundUp) is $want', ({ value, total, roundUp, want }) => {
    expect(scaledValue(value, total, roundUp)).toBe(want);
  });

  it.each(['oops', '25', '2.5%', '%', '', ' 5%', '5 %', '0x10%'])('rejects %j with a RangeError naming the value', (value) => {
    expect(() => scaledValue(value, 10, true)).toThrow(
      new RangeError(`invalid value for IntOrString: invalid value "${value}": must be an integer or percentage (e.g. '5%')`),
    );
  });
});
