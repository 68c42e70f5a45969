// The fakes read merged labels the way the perception writes them (joinLabelParts / labelParts), so a label
// that itself contains " | " (a contact named "Ann | Bob") is one part, not two.
import { describe, expect, it } from 'vitest';
import { joinLabelParts, type Scene } from '../../src/shared/scene';
import { findElement } from './fake-policy';
import { alternatesTwoScreens } from './misbehaving-model';
import { answerAfter, find, stepsPolicy } from './suite-agent';

const scene: Scene = {
  screen: { package: 'com.android.contacts', width: 1080, height: 2400, orientation: 'portrait', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'TextView', text: joinLabelParts(['Ann | Bob', '+1 555 0100']), bounds: [0, 300, 1080, 440], clickable: true },
    { id: 'e2', type: 'TextView', text: joinLabelParts(['Ann', 'Bob']), bounds: [0, 440, 1080, 580], clickable: true },
  ],
} as Scene;

describe('the fakes split merged labels with the perception\'s labelParts', () => {
  it('a part containing " | " matches whole, and its halves do not match it', () => {
    expect(findElement(scene, 'Ann | Bob')?.id).toBe('e1');
    expect(find(scene, { text: 'Ann | Bob' })?.id).toBe('e1');
    expect(findElement(scene, 'Bob')?.id).toBe('e2');
    expect(find(scene, { text: 'Bob' })?.id).toBe('e2');
  });

  it('the misbehaving model and the scripted answers read the same parts', () => {
    const turn = { goal: 'g', scene };
    expect(alternatesTwoScreens('Ann | Bob')(turn as never)).toMatchObject({ kind: 'call', tool: 'tap', args: { element_id: 'e1' } });
    const answer = stepsPolicy([answerAfter({ text: 'Ann | Bob' }, {})])(turn as never);
    expect(answer).toMatchObject({ kind: 'call', tool: 'finish_task', args: { success: true, reason: '+1 555 0100' } });
  });
});
