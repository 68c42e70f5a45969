// The recorder's own rules, with the screen reads given (the phone parts are exercised by recording-apps.test.ts and
// the browser tests): hostile edits are refused in words and change nothing, a failed input is not kept, an empty
// recording is not saved, and what is kept holds no picture.
import { describe, expect, it } from 'vitest';
import { RecordingService } from '../../src/app/recording-service';
import type { TaskEvent } from '../../src/shared/task';
import type { Scene } from '../../src/shared/scene';

const scene: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', keyboardShown: false },
  elements: [{ id: 'e1', type: 'LinearLayout', text: 'Wi-Fi', bounds: [0, 0, 1080, 200], clickable: true }],
};

function recorder() {
  const kept: TaskEvent[] = [];
  const service = new RecordingService({ events: { publish: () => undefined }, readScreen: async () => ({ scene, ms: 1 }), keep: async (event) => void kept.push(event) });
  return { service, kept };
}

describe('the recorder', () => {
  it('Scenario: A hostile or broken edit is refused in words and the recording keeps what it had', async () => {
    const { service } = recorder();
    await service.start('phone');
    await service.carryOut('phone', { kind: 'tap', x: 10, y: 10 }, async () => 'done', { name: 'tap', args: { x: 10, y: 10 } });
    const before = service.status('phone')!.steps;
    expect(before.map((step) => step.label)).toEqual(['tap: { app: com.android.settings, type: LinearLayout, text: Wi-Fi }']);
    const refused = (text: string, vars?: Record<string, string>) => {
      expect(() => service.editStep('phone', 's1', text, vars)).toThrow(/could not be read/);
      expect(service.status('phone')!.steps).toEqual(before);
    };
    refused('tap: { colour: red }');
    refused('tap: { text: "${missing}" }');
    refused('tap: { text: "${__proto__}" }', { __proto__: 'x' } as Record<string, string>);
    refused('- tap: { text: a }\n- tap: { text: b }');
    refused('&a [*a, *a]');
    refused('tap: { text: Wi-Fi }\ngoal: other');
    expect(() => service.editStep('phone', 's9', 'tap: { text: Wi-Fi }')).toThrow(/no step s9/);
    expect(() => service.deleteStep('other-phone', 's1')).toThrow(/No recording runs on other-phone/);
  });

  it('Scenario: A failed input is not recorded, and an empty recording is not saved', async () => {
    const { service, kept } = recorder();
    await service.start('phone');
    await expect(service.carryOut('phone', { kind: 'key', key: 'back' }, async () => Promise.reject(new Error('adb went away')), { name: 'press_key', args: { key: 'back' } })).rejects.toThrow('adb went away');
    expect(service.status('phone')!.steps).toEqual([]);
    await expect(service.stop('phone', 'Nothing')).rejects.toThrow(/Nothing was recorded yet/);
    expect(kept).toEqual([]);
    // Kept, a step's turn carries its layout text, never a picture.
    await service.carryOut('phone', { kind: 'tap', x: 10, y: 10 }, async () => 'done', { name: 'tap', args: { x: 10, y: 10 } });
    const taskId = await service.stop('phone', 'Open Wi-Fi');
    const observed = kept.filter((event) => event.type === 'step.observed');
    expect(observed).toHaveLength(1);
    expect(observed.every((event) => event.type === 'step.observed' && event.screenshot === null && event.scene !== null)).toBe(true);
    expect(kept[0]).toMatchObject({ type: 'task.started', taskId, recorded: { by: 'person', flow: { goal: 'Open Wi-Fi' } } });
    expect(service.isRecording('phone')).toBe(false);
  });
});
