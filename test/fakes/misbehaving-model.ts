/**
 * The "misbehaving model": scripted behaviours for the loopback provider fakes (both wire formats) that a real
 * model shows on a bad day. Each reads the turn's Scene from the request and answers with a grounded tool call,
 * so the runtime's guards, not the script, decide how the task ends.
 */
import { labelParts } from '../../src/shared/scene';
import { findElement, finish, type FakePolicy, type FakeReply, type FakeTurn } from './fake-policy';

const call = (tool: string, args: Record<string, unknown>, text: string): FakeReply => ({ kind: 'call', tool, args, text });

/** Taps the element labelled `label` on this turn's Scene; null when it is not there. */
function tapOn(turn: FakeTurn, label: string | RegExp, text: string): FakeReply | null {
  const element = findElement(turn.scene, label);
  return element ? call('tap', { element_id: element.id }, text) : null;
}

/** The same action every turn, whatever happens (the issue's `launch_app Settings` loop). */
export function repeatsOneActionForever(tool = 'launch_app', args: Record<string, unknown> = { app: 'Settings' }): FakePolicy {
  return () => call(tool, args, 'Opening it again; it should work this time.');
}

/** Opens a contact, goes back, opens it again... between two screens, never done. */
export function alternatesTwoScreens(contact = 'Alice Johnson'): FakePolicy {
  return (turn) => {
    const row = turn.scene?.elements.find((element) => element.clickable && element.text !== undefined && labelParts(element.text).includes(contact));
    return row ? call('tap', { element_id: row.id }, `Opening ${contact} to check the number.`) : call('press_key', { key: 'back' }, 'Going back to the list to look again.');
  };
}

/**
 * Reads the element ids of the first Scene it sees and keeps using them: taps the id `label` had on turn one on
 * every later screen, where that id is gone or names something else.
 */
export function usesStaleElementIds(label: string): FakePolicy {
  let remembered: string | undefined;
  return (turn) => {
    if (remembered === undefined) {
      const element = findElement(turn.scene, label);
      if (!element) throw new Error(`script: no ${label} on the first screen`);
      remembered = element.id;
    }
    return call('tap', { element_id: remembered }, `Tapping ${label} (${remembered}).`);
  };
}

/**
 * Opens a note and then does what the note's text says instead of the goal: opens Messages, writes `message` to
 * `recipient` and sends it. A denied or refused step is taken as final and the model reports the note's text.
 */
export function followsInjectedInstruction(note: string, recipient: string, message: string): FakePolicy {
  let opened = false;
  let typed = false;
  let denied = false;
  return (turn) => {
    if (/the person denied this action|not among this task's allowed apps/.test(turn.lastUserText) || denied) {
      denied = true;
      return finish(true, `The note "${note}" asks to send a code; I did not send it.`, 'That action was refused.');
    }
    const screen = turn.scene?.screen.package ?? '';
    if (screen === 'com.amc.notes') {
      const open = opened ? null : tapOn(turn, note, `Opening the note "${note}".`);
      opened = true;
      return open ?? call('launch_app', { app: 'Messages' }, `The note says to send "${message}" to ${recipient}; doing that.`);
    }
    if (screen === 'com.android.messaging') {
      const compose = findElement(turn.scene, 'compose_message_text');
      if (!compose) return tapOn(turn, recipient, `Opening the chat with ${recipient}.`) ?? finish(false, `No chat with ${recipient}.`);
      if (!typed) {
        typed = true;
        return call('type_text', { text: message, element_id: compose.id }, `Typing "${message}".`);
      }
      return tapOn(turn, 'Send SMS', 'Sending it, as the note says.') ?? finish(false, 'No send button.');
    }
    return call('launch_app', { app: 'Notes' }, 'Opening Notes to read the note.');
  };
}

/** Asked only to read a chat, it writes and sends a reply nobody asked for. */
export function sendsAnUnaskedMessage(contact: string, reply: string): FakePolicy {
  let typed = false;
  return (turn) => {
    if (turn.scene?.screen.package !== 'com.android.messaging') return call('launch_app', { app: 'Messages' }, 'Opening Messages.');
    const compose = findElement(turn.scene, 'compose_message_text');
    if (!compose) return tapOn(turn, contact, `Opening the chat with ${contact}.`) ?? finish(false, `No chat with ${contact}.`);
    if (!typed) {
      typed = true;
      return call('type_text', { text: reply, element_id: compose.id }, 'I will answer on the person\u2019s behalf.');
    }
    return tapOn(turn, 'Send SMS', 'Sending my reply.') ?? finish(false, 'No send button.');
  };
}

/** Says the goal is reached on the first turn, having done nothing. */
export function declaresSuccessAtOnce(): FakePolicy {
  return () => finish(true, 'Done: everything is set as you asked.', 'That is already done.');
}

/**
 * Never finishes and never loops: opens one app after another, round and round (no screen comes back two turns
 * later, no action repeats unchanged), with a long rationale so every call costs tokens.
 */
export function neverFinishes(apps: readonly string[] = ['Settings', 'Contacts', 'Clock', 'Notes', 'Messages']): FakePolicy {
  return (turn) => {
    const app = apps[turn.callIndex % apps.length]!;
    return call('launch_app', { app }, `Still looking for the right place. Turn ${turn.callIndex + 1}: maybe ${app} has it; I have not checked there for a while.`);
  };
}

/**
 * Obeys any standing-instructions block in the turn's prompt, wherever it came from, as a real model does: one that
 * says "Open Contacts" opens Contacts. Otherwise it reaches the goal at once (finishes).
 */
export function obeysAnyStandingInstructions(): FakePolicy {
  return (turn) => {
    const standing = /<standing_instructions>([^<]*)<\/standing_instructions>/.exec(turn.lastUserText)?.[1] ?? '';
    if (/open contacts/i.test(standing) && turn.scene?.screen.package !== 'com.android.contacts') {
      return call('launch_app', { app: 'Contacts' }, 'The standing instructions say to open Contacts first.');
    }
    return finish(true, 'Done: the goal is reached.');
  };
}

/**
 * Wanders out of the task's apps: taps the home screen's `icon` (an app the task does not allow), then, once the
 * runtime has gone back out of it, says the goal is reached.
 */
export function wandersIntoAnotherApp(icon: string): FakePolicy {
  let tapped = false;
  return (turn) => {
    if (!tapped) {
      const reply = tapOn(turn, icon, `${icon} may have the setting.`);
      if (!reply) throw new Error(`script: no ${icon} icon on the first screen`);
      tapped = true;
      return reply;
    }
    return finish(true, 'Done: the goal is reached.');
  };
}
