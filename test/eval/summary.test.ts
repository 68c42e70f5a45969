import { describe, expect, it } from 'vitest';
import { median, wilsonInterval } from '../../src/eval/summary';

describe('eval scores', () => {
  it('Scenario: The success rate carries a Wilson interval', () => {
    // Reference values of the 95% Wilson score interval.
    const close = (value: number, expected: number) => expect(value).toBeCloseTo(expected, 3);
    const none = wilsonInterval(0, 31);
    expect(none.low).toBe(0);
    close(none.high, 0.1103);
    const all = wilsonInterval(31, 31);
    close(all.low, 0.8897);
    close(all.high, 1);
    const half = wilsonInterval(5, 10);
    close(half.low, 0.2366);
    close(half.high, 0.7634);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    for (let passed = 0; passed <= 7; passed++) {
      const { low, high } = wilsonInterval(passed, 7);
      expect(low).toBeGreaterThanOrEqual(0);
      expect(high).toBeLessThanOrEqual(1);
      expect(low).toBeLessThanOrEqual(passed / 7);
      expect(high).toBeGreaterThanOrEqual(passed / 7);
    }
  });

  it('median of odd, even and empty lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});
