// The plan cache's key: what it sets aside (spacing, closing punctuation, a sentence's first capital) and what it keeps.
import { describe, expect, it } from 'vitest';
import { planCacheKey } from '../../src/shared/plan-cache';

describe('the plan cache key', () => {
  it('Scenario: The plan cache key sets aside only what carries no data', () => {
    const key = planCacheKey('Turn on Wi-Fi.');
    for (const same of ['turn on Wi-Fi', '  Turn on   Wi-Fi!', 'Turn on Wi-Fi?…']) expect(planCacheKey(same), same).toBe(key);
    for (const other of ['Turn on WI-FI', 'turn on wi-fi', 'Turn off Wi-Fi']) expect(planCacheKey(other), other).not.toBe(key);
    // A name in capitals is its own goal, whatever its case elsewhere.
    const names = ['Call KIM LEE', 'Call Kim Lee', 'Call kim lee', 'KIM LEE: call her', 'Kim Lee: call her'].map(planCacheKey);
    expect(new Set(names).size).toBe(names.length);
    expect(planCacheKey('打开设置。')).toBe(planCacheKey('打开设置'));
  });
});
