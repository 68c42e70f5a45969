// A model for runs on several phones at once: it reads only the screen it is shown, so phones in parallel do not share
// a script: open Settings, then Network & internet, then turn Wi-Fi on, then say so.
import { findElement, finish, type FakePolicy, type FakeReply, type FakeTurn } from './fake-policy';

export function wifiOnModel(turn: FakeTurn): FakeReply {
  const wifi = turn.scene?.elements.find((element) => /^Wi-Fi/.test(element.text ?? element.desc ?? '') && element.checked !== undefined);
  if (wifi?.checked) return finish(true, 'Wi-Fi is on');
  if (wifi) return { kind: 'call', tool: 'tap', args: { element_id: wifi.id }, text: 'Turning Wi-Fi on.' };
  for (const label of [/^Network & internet/, /^Settings$/]) {
    const element = findElement(turn.scene, label);
    if (element) return { kind: 'call', tool: 'tap', args: { element_id: element.id }, text: `Opening ${element.text ?? element.desc}.` };
  }
  return { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: 'Going home to find Settings.' };
}

/** The model with each answer held back `delayMs()` (read at every turn), to keep a task running a while. */
export function slowedModel(model: FakePolicy, delayMs: () => number): FakePolicy {
  return async (turn) => {
    const reply = await model(turn);
    const ms = delayMs();
    return ms > 0 ? { kind: 'delay', ms, then: reply } : reply;
  };
}
