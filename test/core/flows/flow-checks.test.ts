// The FlowChecks port: asserts judged in code on real Scenes, ask_ai answered by a scripted model through the real
// Anthropic and OpenAI SDKs (loopback fakes), including a model that answers nonsense.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SceneSchema, type Scene } from '../../../src/shared/scene';
import { createProviderClient } from '@amc/provider-clients';
import { ASK_NEEDS_A_MODEL, createFlowChecks } from '../../../src/core/flows/flow-checks';
import { findElement, startProviderFake, type FakePolicy, type FakeProvider, type FakeServer } from '../../fakes/index';

const scene = (name: string): Scene => SceneSchema.parse(JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/dumps', `${name}.scene.json`), 'utf8')));
const settings = scene('tablet-settings-rot3');

const started: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function checksWith(provider: FakeProvider, policy: FakePolicy) {
  const fake = await startProviderFake(provider, policy);
  started.push(fake);
  const client = createProviderClient({ provider, apiKey: fake.apiKey, baseURL: fake.baseURL, model: `${provider}-test`, timeoutMs: 5_000 });
  return { fake, checks: createFlowChecks({ client }) };
}

const signal = new AbortController().signal;

describe('assert steps', () => {
  const checks = createFlowChecks({ client: null });

  it('Scenario: An assertion is checked on the Scene and says why it failed', () => {
    expect(checks.assert(settings, { visible: 'dark theme', checked: { text: 'Adaptive brightness' }, unchecked: { text: 'Dark theme' }, app: 'com.android.settings' })).toMatchObject({
      holds: true,
      fact: '"dark theme" is on screen (LinearLayout "Display · Dark theme, font size"); LinearLayout "Adaptive brightness" is on; LinearLayout "Dark theme" is off; com.android.settings is in front',
    });
    // A part of a merged row counts: "Wi-Fi, mobile, data usage" is the summary line of "Network & internet".
    expect(checks.assert(settings, { visible: 'data usage', absent: 'Airplane mode' })).toMatchObject({ holds: true });
    expect(checks.assert(settings, { visible: 'Bluetooth tethering' })).toMatchObject({
      holds: false,
      reason: 'no "Bluetooth tethering" on screen; it shows "Settings", "Search settings", "Network & internet", "Wi-Fi, mobile, data usage", "Connected devices", "Bluetooth, pairing" …',
    });
    expect(checks.assert(settings, { absent: 'Battery', checked: { text: 'Dark theme' }, unchecked: { text: 'Hotspot' }, app: 'com.android.chrome' })).toMatchObject({
      holds: false,
      reason:
        '"Battery" is on screen (LinearLayout "Battery · 76% - About 9 hr left"); LinearLayout "Dark theme" is off, not on; ' +
        "no 'Hotspot' on this screen; I see: Search settings, Network & internet, Connected devices, Apps, Notifications, Battery, Storage, Sound & vibration, and 21 more; " +
        'com.android.settings is in front, not com.android.chrome',
    });
    expect(checks.assert(settings, { checked: { text: 'Battery' } })).toMatchObject({
      holds: false,
      reason: 'LinearLayout "Battery · 76% - About 9 hr left" cannot be checked or unchecked (it is not a switch, checkbox or radio button)',
    });
  });

  it('ask_ai with the AI planner off calls no model and says what to turn on', async () => {
    await expect(checks.ask(settings, { question: 'Is dark theme on?', kind: 'yes-no' }, signal)).rejects.toThrow(ASK_NEEDS_A_MODEL);
  });
});

describe.each(['anthropic', 'openai'] as const)('ask_ai through %s', (provider) => {
  it('Scenario: ask_ai answers yes or no from the Scene through the provider SDK', async () => {
    const offered: string[][] = [];
    const { fake, checks } = await checksWith(provider, (turn) => {
      offered.push(turn.toolNames);
      const row = findElement(turn.scene, 'Dark theme');
      return { kind: 'call', tool: 'answer', args: { answer: row?.checked ? 'yes' : 'no', why: 'The Dark theme row is off.' }, text: 'The Dark theme switch is off.' };
    });
    const answer = await checks.ask(settings, { question: 'Is dark theme on?', kind: 'yes-no' }, signal);
    expect(answer).toEqual({ kind: 'yes-no', yes: false, why: 'The Dark theme row is off.', usage: expect.objectContaining({ inputTokens: expect.any(Number) }) });
    // The model got the question and this Scene, and only the answer tool: it can read, not act.
    expect(offered).toEqual([['answer']]);
    expect(JSON.stringify(fake.bodies())).toContain('Is dark theme on?');
  });

  it('Scenario: ask_ai extracts a value from the Scene into a variable', async () => {
    const { checks } = await checksWith(provider, () => ({ kind: 'call', tool: 'answer', args: { value: '76%', why: 'The Battery row says 76%.' } }));
    expect(await checks.ask(settings, { question: 'What is the battery level?', kind: 'extract', into: 'level' }, signal)).toMatchObject({ kind: 'extract', value: '76%' });
  });

  it('Scenario: A model answering nonsense to ask_ai fails the step with a plain reason', async () => {
    const replies = [
      { kind: 'call', tool: 'answer', args: { answer: 'maybe', why: 'Hard to say.' } },
      { kind: 'call', tool: 'answer', args: { value: '4711', why: 'The code is 4711.' } },
      { kind: 'call', tool: 'answer', args: { value: '', why: 'No code is shown.' } },
      { kind: 'call', tool: 'tap', args: { element_id: 'e24' } },
    ] as const;
    let call = 0;
    const { checks } = await checksWith(provider, () => replies[Math.min(call++, replies.length - 1)]!);
    await expect(checks.ask(settings, { question: 'Is dark theme on?', kind: 'yes-no' }, signal)).rejects.toThrow(
      'the model\'s answer to "Is dark theme on?" was not a yes or a no: {"answer":"maybe","why":"Hard to say."}',
    );
    // A value the screen does not show is the model's invention: a later step would type it.
    await expect(checks.ask(settings, { question: 'Which code is shown?', kind: 'extract', into: 'code' }, signal)).rejects.toThrow(
      'the model answered "4711" to "Which code is shown?", but the screen does not show "4711"',
    );
    await expect(checks.ask(settings, { question: 'Which code is shown?', kind: 'extract', into: 'code' }, signal)).rejects.toThrow(
      'the model found no answer to "Which code is shown?" on the screen: No code is shown.',
    );
    // Acting is not on offer: the client refuses a call to a tool it did not offer.
    await expect(checks.ask(settings, { question: 'Is dark theme on?', kind: 'yes-no' }, signal)).rejects.toThrow(/unknown tool "tap"/);
  });
});
