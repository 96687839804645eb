import { describe, expect, it } from 'vitest';
import { medianInterval, verdict } from './interval.js';

const shuffled = (n: number) => Array.from({ length: n }, (_, i) => n - i);

describe('the median interval of the cost bench (issue 26)', () => {
  it('takes the order statistics whose binomial tail stays within the confidence', () => {
    // 11 rounds: P(X ≤ 2) = 67/2048 ≤ 5 % < P(X ≤ 3): the 3rd and the 9th value.
    expect(medianInterval(shuffled(11))).toEqual([3, 9]);
    // 9 rounds: P(X ≤ 1) = 10/512 ≤ 5 % < P(X ≤ 2) = 46/512.
    expect(medianInterval(shuffled(9))).toEqual([2, 8]);
    expect(medianInterval(shuffled(7))).toEqual([1, 7]);
    // Fewer than 5: no pair reaches 90 %, the whole range.
    expect(medianInterval([4, 1, 3])).toEqual([1, 4]);
    expect(medianInterval(shuffled(30), 0.95)).toEqual([10, 21]);
  });

  it('calls a budget reached or not only when the whole interval is on one side', () => {
    expect(verdict([0.01, 0.049], 0.05)).toBe('reached');
    expect(verdict([0.051, 0.2], 0.05)).toBe('not reached');
    expect(verdict([-0.05, 0.12], 0.05)).toBe('not resolved');
  });
});
