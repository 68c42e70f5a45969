// A flow's condition that cannot be evaluated on the phone's screen says why by code, in the reader's language.
import { describe, expect, it } from 'vitest';
import { checkAssertion } from '../../../src/core/flows/scene-assertions';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { saidWords } from '../../../src/shared/supervision-words';
import { sceneWith } from '../runtime/doubles';
import { latinSentences } from '../../support/latin-sentences';

const zh = wordsFor('zh-CN');

describe("a flow condition's own problem at run time", () => {
  it("Scenario: A flow condition that cannot be evaluated at run time is told in the reader's language", () => {
    const scene = sceneWith('Wi-Fi');
    // A hand-written flow's condition passes the file's form check but ends early, is left open or names no value.
    for (const expression of ['$0 &&', '( $0', '$0 == $3']) {
      const result = checkAssertion(scene, { condition: { written: expression, expression, values: [true] } });
      if (result.holds) throw new Error(`${expression} held`);
      expect(result.said, expression).toBeDefined();
      const chinese = saidWords(result.reason, result.said, zh);
      expect(chinese).not.toBe(result.reason);
      expect(latinSentences(chinese), chinese).toEqual([]);
    }
    // English as before: the problem's own words.
    const early = checkAssertion(scene, { condition: { written: '$0 &&', expression: '$0 &&', values: [true] } });
    if (early.holds) throw new Error('$0 && held');
    expect(saidWords(early.reason, early.said)).toBe(early.reason);
  });
});
