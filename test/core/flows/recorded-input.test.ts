// A person's input on the mirror as the call carried out and the flow step kept (recorded-input.ts), on screens built
// the way the Observer builds them: the element the person saw is the one named, wherever it went.
import { describe, expect, it } from 'vitest';
import { checkAt, joinedTyping, recordedInput, settledStep } from '../../../src/core/flows/recorded-input';
import { joinLabelParts, type Scene, type SceneElement } from '../../../src/shared/scene';

const screen = { width: 1080, height: 2400, orientation: 'portrait' as const, package: 'com.android.messaging', keyboardShown: false };
const row = (index: number, name: string): SceneElement => ({
  id: `e${index + 1}`,
  type: 'LinearLayout',
  text: joinLabelParts([name, `Hi from ${name}`]),
  bounds: [0, 300 + index * 210, 1080, 510 + index * 210],
  clickable: true,
});
const list = (names: string[]): Scene => ({ screen, elements: names.map((name, index) => row(index, name)) });

describe('a mirror input while recording', () => {
  it('names the row the person saw, and aims the tap at where it is now when it moved', () => {
    const seen = list(['Ann Lee', 'Bob Stone', 'Cara Diaz']);
    const now = list(['Cara Diaz', 'Ann Lee', 'Bob Stone']);
    const bobWas = { x: 540, y: 300 + 210 + 105 };
    const taken = recordedInput(seen, now, { kind: 'tap', ...bobWas });
    expect(taken.note).toBe('moved');
    expect(taken.step.target?.text).toBe('Bob Stone');
    // Bob is third now: the tap goes there, not to Ann who took his place.
    expect(taken.call).toEqual({ name: 'tap', args: { x: 540, y: 300 + 2 * 210 + 105 } });
  });

  it('takes what is under the point now when what the person saw is gone from the screen', () => {
    const seen = list(['Ann Lee', 'Bob Stone']);
    const now = list(['Dan Ruiz', 'Eve Moss']);
    const taken = recordedInput(seen, now, { kind: 'tap', x: 540, y: 400 });
    expect(taken.note).toBeUndefined();
    expect(taken.step.target?.text).toBe('Dan Ruiz');
    expect(taken.call.args).toEqual({ x: 540, y: 400 });
  });

  it('keeps a point, and says so, where no locator names the element alone', () => {
    const twins: Scene = { screen, elements: [0, 1].map((index) => ({ id: `e${index + 1}`, type: 'ImageButton', desc: 'More options', bounds: [0, index * 200, 200, index * 200 + 200], clickable: true })) };
    const taken = recordedInput(twins, twins, { kind: 'tap', x: 100, y: 300 });
    expect(taken.note).toBe('point');
    expect(taken.step).toEqual({ tool: 'tap', args: {}, point: '100,300' });
  });

  it('keeps swipes by direction, keys and typing as their tools', () => {
    expect(recordedInput(null, null, { kind: 'swipe', fromX: 540, fromY: 1800, toX: 560, toY: 600 }).step).toEqual({ tool: 'swipe', args: { direction: 'up' } });
    expect(recordedInput(null, null, { kind: 'swipe', fromX: 900, fromY: 1200, toX: 100, toY: 1250 }).step.args).toEqual({ direction: 'left' });
    expect(recordedInput(null, null, { kind: 'key', key: 'back' }).step).toEqual({ tool: 'press_key', args: { key: 'back' } });
    const typed = recordedInput(null, null, { kind: 'text', text: 'Hi' }).step;
    expect(joinedTyping(typed, recordedInput(null, null, { kind: 'text', text: ' there' }).step)).toEqual({ tool: 'type_text', args: { text: 'Hi there' } });
    expect(joinedTyping({ tool: 'press_key', args: { key: 'enter' } }, typed)).toBeNull();
  });

  it('turns a launcher tap that opened an app into opening it, and keeps the state a switch was left in', () => {
    const launcher: Scene = { screen: { ...screen, package: 'com.android.launcher3' }, elements: [{ id: 'e1', type: 'TextView', text: 'Settings', bounds: [0, 0, 200, 200], clickable: true }] };
    const settings: Scene = { screen: { ...screen, package: 'com.android.settings' }, elements: [] };
    const tap = recordedInput(launcher, launcher, { kind: 'tap', x: 100, y: 100 }).step;
    expect(settledStep(tap, launcher, settings)).toEqual({ step: { tool: 'launch_app', args: { app: 'com.android.settings' }, expect: { app: 'com.android.settings' } }, note: 'launched' });
    const wifi = (on: boolean): Scene => ({ screen: { ...screen, package: 'com.android.settings' }, elements: [{ id: 'e1', type: 'LinearLayout', text: joinLabelParts(['Wi-Fi', on ? 'Connected' : 'Off']), checked: on, bounds: [0, 0, 1080, 200], clickable: true }] });
    const flip = recordedInput(wifi(false), wifi(false), { kind: 'tap', x: 500, y: 100 }).step;
    expect(flip.before).toEqual({ checked: false });
    expect(settledStep(flip, wifi(false), wifi(true)).step.expect).toEqual({ checked: true });
  });
});

describe('Add check', () => {
  const scene: Scene = {
    screen: { ...screen, package: 'com.android.settings' },
    elements: [
      { id: 'e1', type: 'TextView', text: 'Network & internet', bounds: [0, 0, 1080, 200] },
      { id: 'e2', type: 'LinearLayout', text: joinLabelParts(['Wi-Fi', 'Connected']), checked: true, bounds: [0, 200, 1080, 400], clickable: true },
      { id: 'e3', type: 'EditText', text: 'typed words', editable: true, bounds: [0, 400, 1080, 600] },
    ],
  };

  it('Scenario: Add check then a click adds an assert of the element clicked', () => {
    expect(checkAt(scene, { x: 10, y: 100 }, 'visible')).toEqual({ step: { assert: { visible: 'Network & internet' } } });
    expect(checkAt(scene, { x: 10, y: 300 }, 'visible')).toEqual({ step: { assert: { visible: 'Wi-Fi' } } });
    expect(checkAt(scene, { x: 10, y: 300 }, 'checked')).toEqual({ step: { assert: { checked: { app: 'com.android.settings', type: 'LinearLayout', text: 'Wi-Fi' } } } });
    // What cannot be checked is refused with its reason, never turned into another check.
    expect(checkAt(scene, { x: 10, y: 100 }, 'checked')).toEqual({ problem: 'not-checkable' });
    expect(checkAt(scene, { x: 10, y: 500 }, 'visible')).toEqual({ problem: 'no-words' });
    expect(checkAt(scene, { x: 10, y: 2000 }, 'visible')).toEqual({ problem: 'nothing-here' });
  });
});
