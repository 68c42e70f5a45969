import { describe, expect, it } from 'vitest';
import { actionPhrase } from '../../src/shared/action-words';
import { supervisionLines } from '../../src/shared/supervision-words';
import { nameInLabel } from '../../src/shared/scene';
import { wordsFor } from '../../src/shared/i18n/translate';

describe('actions in words', () => {
  it('Scenario: Actions and guards read as a person says them, with no widget class or JSON', () => {
    expect(actionPhrase('tap', { element_id: 'e4' }, 'Network & internet')).toBe("Tap 'Network & internet'");
    expect(actionPhrase('launch_app', { app: 'Settings' }, undefined, 'done')).toBe('Opened Settings');
    expect(actionPhrase('press_key', { key: 'volume_up' })).toBe('Press Volume up');
    expect(actionPhrase('swipe', { direction: 'up' }, 'Apps list')).toBe("Swipe up on 'Apps list'");
    expect(actionPhrase('tap', { x: 10, y: 20 })).toBe('Tap at (10, 20)');
    expect(actionPhrase('wait', { seconds: 2 })).toBe('Wait 2 s');
    // A wait worked out in floating point reads as a person would write it.
    expect(actionPhrase('wait', { seconds: 0.21000000000000002 }, undefined, 'done')).toBe('Waited 0.2 s');
    expect(nameInLabel('LinearLayout "Network & internet · Mobile, Wi-Fi"')).toBe('Network & internet');
    expect(nameInLabel('ImageButton')).toBeUndefined();
    const [line] = supervisionLines([
      { type: 'person.asked', taskId: 't', at: 1, step: 2, requestId: 'r', request: { kind: 'confirmation', tool: 'tap', args: { element_id: 'e2' }, rationale: null, reasons: ['it taps "Send"'], target: { elementId: 'e2', label: 'Button "Send"' } } },
    ]);
    expect(line!.text).toBe('Confirmation asked to tap \'Send\': it taps "Send"');
    expect(line!.text).not.toMatch(/[{}]|Button/);
  });

  it("a swipe's direction is worded in the window's language; one the tool does not name stays as given", () => {
    const chinese = wordsFor('zh-CN');
    expect(actionPhrase('swipe', { direction: 'up' }, undefined, 'do', chinese)).toBe('滑动 向上');
    expect(actionPhrase('swipe', { direction: 'left' }, undefined, 'done', chinese)).toBe('滑动了 向左');
    expect(actionPhrase('swipe', { direction: 'down' })).toBe('Swipe down');
    expect(actionPhrase('swipe', { direction: 'sideways' }, undefined, 'do', chinese)).toBe('滑动 sideways');
  });
});
