// A fleet schedule refused before it reaches Redis says why by code, so a Chinese terminal reads it in Chinese.
import { describe, expect, it } from 'vitest';
import { cronTooOften } from '../../src/fleet/client';
import { wordsFor } from '../../src/shared/i18n/translate';
import { saidWords } from '../../src/shared/supervision-words';
import { latinSentences } from '../support/latin-sentences';

const zh = wordsFor('zh-CN');

describe('fleet schedule refusals', () => {
  it("Scenario: A fleet schedule refused as too often is told in the reader's language", () => {
    const perSecond = cronTooOften('* * * * * *')!;
    const fourFields = cronTooOften('0 7 * *')!;
    expect(cronTooOften('0 7 * * *')).toBeNull();
    expect(cronTooOften('30 0 7 * * *')).toBeNull();
    // English as the CLI printed it before.
    expect(perSecond.text).toBe(
      'a fleet schedule runs at most once a minute; "* * * * * *" has a seconds field ("*") that fires more often: use five fields (MIN HOUR DAY MONTH WEEKDAY), or one second such as 0',
    );
    expect(fourFields.text).toBe('a cron pattern has five fields (MIN HOUR DAY MONTH WEEKDAY), e.g. "0 7 * * *"; "0 7 * *" has 4');
    for (const refusal of [perSecond, fourFields]) {
      const chinese = saidWords(refusal.text, refusal.said, zh);
      expect(chinese).not.toBe(refusal.text);
      expect(latinSentences(chinese, ['MIN HOUR DAY MONTH WEEKDAY']), chinese).toEqual([]);
    }
    expect(saidWords(perSecond.text, perSecond.said, zh)).toContain('最多每分钟运行一次');
  });
});
