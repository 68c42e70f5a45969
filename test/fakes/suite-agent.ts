/**
 * A scripted "model" for the task suite (src/eval/tasks): per task, a list of steps that read the turn's Scene
 * from the request and answer with one tool call grounded in it (tap by element id, type, scroll until
 * visible, press a key), ending with finish_task. It stands in for an LLM so the whole runtime (prompt, SDK,
 * fake provider, runner, Executor, adb, virtual device) runs end to end.
 */
import { labelParts, type Scene, type SceneElement } from '../../src/shared/scene';
import { PHONE_TASKS } from '../../src/eval/tasks/index';
import { finish, type FakePolicy, type FakeReply } from './fake-policy';

export interface Selector {
  /** A whole label or one part of a merged row (as the perception's `labelParts` gives them back). */
  text?: string;
  textContains?: string;
  desc?: string;
  /** resource id (without the package prefix). */
  id?: string;
}

/** One scripted step: a reply for this turn, or null when there is nothing (more) to do and the next step acts. */
interface Step {
  act(scene: Scene): FakeReply | null;
  /** Stays current after acting (e.g. scroll until something is visible). */
  repeat?: boolean;
}

function matches(element: SceneElement, selector: Selector): boolean {
  const parts = element.text ? [element.text, ...labelParts(element.text)] : [];
  return (
    (selector.text === undefined || parts.includes(selector.text)) &&
    (selector.textContains === undefined || (element.text ?? '').includes(selector.textContains)) &&
    // The Scene leaves out a content-desc equal to the text, so a desc may show up as the text.
    (selector.desc === undefined || element.desc === selector.desc || (element.desc === undefined && parts.includes(selector.desc))) &&
    (selector.id === undefined || element.resourceId === selector.id)
  );
}

export function find(scene: Scene, selector: Selector): SceneElement | undefined {
  return scene.elements.find((element) => matches(element, selector));
}

function need(scene: Scene, selector: Selector): SceneElement {
  const element = find(scene, selector);
  if (!element) throw new Error(`script: no element ${JSON.stringify(selector)} on ${scene.screen.package}${scene.screen.activity ?? ''}`);
  return element;
}

const call = (tool: string, args: Record<string, unknown>, text: string): FakeReply => ({ kind: 'call', tool, args, text });

export const tap = (selector: Selector): Step => ({
  act: (scene) => call('tap', { element_id: need(scene, selector).id }, `Tapping ${JSON.stringify(selector)}.`),
});

export const longPress = (selector: Selector): Step => ({
  act: (scene) => call('long_press', { element_id: need(scene, selector).id }, `Long-pressing ${JSON.stringify(selector)}.`),
});

/** Types into the field `into` (or the focused one), optionally replacing its text. */
export const type = (text: string, into?: Selector, clearFirst = false): Step => ({
  act: (scene) =>
    call('type_text', { text, ...(into ? { element_id: need(scene, into).id } : {}), ...(clearFirst ? { clear_first: true } : {}) }, `Typing ${JSON.stringify(text)}.`),
});

export const key = (name: string): Step => ({ act: () => call('press_key', { key: name }, `Pressing ${name}.`) });

export const launch = (app: string): Step => ({ act: () => call('launch_app', { app }, `Opening ${app}.`) });

/** Swipes up inside the first scrollable element until `selector` is on screen. */
export const scrollTo = (selector: Selector): Step => ({
  repeat: true,
  act: (scene) => {
    if (find(scene, selector)) return null;
    const list = scene.elements.find((element) => element.scrollable);
    return call('swipe', { direction: 'up', ...(list ? { element_id: list.id } : {}) }, `Scrolling to find ${JSON.stringify(selector)}.`);
  },
});

/** Answers with the text of an element (questions): finish_task(success=true). */
export const answer = (selector: Selector): Step => ({
  act: (scene) => finish(true, need(scene, selector).text ?? '', 'The answer is on screen.'),
});

/** Answers with the value shown after a label: the label row's other part, or the next element matching `value`. */
export const answerAfter = (label: Selector, value: Selector): Step => ({
  act: (scene) => {
    const at = scene.elements.findIndex((element) => matches(element, label));
    if (at < 0) throw new Error(`script: no label ${JSON.stringify(label)}`);
    const row = scene.elements[at]!;
    const merged = row.text === undefined ? undefined : labelParts(row.text);
    if (merged && merged.length > 1 && label.text) return finish(true, merged.filter((part) => part !== label.text).join(' '), 'The value is on screen.');
    const next = scene.elements.slice(at + 1).find((element) => matches(element, value));
    if (!next?.text) throw new Error(`script: nothing matching ${JSON.stringify(value)} after ${JSON.stringify(label)}`);
    return finish(true, next.text, 'The value is on screen.');
  },
});

export const giveUp = (reason: string): Step => ({ act: () => finish(false, reason, 'This cannot be done here.') });

/** Runs the steps one reply per model call; after the last one, finishes successfully. */
export function stepsPolicy(steps: Step[]): FakePolicy {
  let current = 0;
  return (turn) => {
    const scene = turn.scene;
    if (!scene) throw new Error('script: the request carried no Scene');
    while (current < steps.length) {
      const step = steps[current]!;
      const reply = step.act(scene);
      if (reply === null) {
        current += 1;
        continue;
      }
      if (!step.repeat) current += 1;
      return reply;
    }
    return finish(true, 'Done.', 'The goal is reached.');
  };
}

/** How an agent could carry out each task of src/eval/tasks with grounded tool calls. */
export const SUITE_SCRIPTS: Record<string, () => Step[]> = {
  'settings-wifi-off': () => [launch('Settings'), tap({ text: 'Network & internet' }), tap({ text: 'Wi-Fi' })],
  'settings-bluetooth-on': () => [launch('Settings'), tap({ text: 'Connected devices' }), tap({ text: 'Bluetooth' })],
  'settings-dark-theme-on': () => [launch('Settings'), tap({ text: 'Display' }), tap({ text: 'Dark theme' })],
  'settings-airplane-mode-on': () => [launch('Settings'), tap({ text: 'Network & internet' }), tap({ text: 'Airplane mode' })],
  'settings-wifi-on-behind-popup': () => [tap({ text: 'OK' }), launch('Settings'), tap({ text: 'Network & internet' }), tap({ text: 'Wi-Fi' })],
  'settings-android-version': () => [launch('Settings'), scrollTo({ text: 'About phone' }), tap({ text: 'About phone' }), answerAfter({ text: 'Android version' }, { id: 'summary' })],
  'settings-build-number': () => [launch('Settings'), scrollTo({ text: 'About phone' }), tap({ text: 'About phone' }), answerAfter({ text: 'Build number' }, { id: 'summary' })],
  'contacts-add-dave': () => [
    launch('Contacts'),
    tap({ text: 'Allow' }),
    tap({ desc: 'Create contact' }),
    type('Dave Brown', { id: 'editor_name' }),
    type('555-0199', { id: 'editor_phone' }),
    tap({ text: 'Save' }),
  ],
  'contacts-add-li-lei': () => [
    launch('Contacts'),
    tap({ desc: 'Create contact' }),
    type('李雷', { id: 'editor_name' }),
    type('13800138000', { id: 'editor_phone' }),
    tap({ text: 'Save' }),
  ],
  'contacts-bob-number': () => [launch('Contacts'), tap({ text: 'Bob Smith' }), answer({ id: 'header' })],
  'contacts-delete-carol': () => [launch('Contacts'), tap({ text: 'Carol Williams' }), tap({ desc: 'Delete' }), tap({ text: 'Delete' })],
  'contacts-scroll-zoe': () => [launch('Contacts'), scrollTo({ text: 'Zoe Young' }), tap({ text: 'Zoe Young' }), answer({ id: 'header' })],
  'contacts-call-infeasible': () => [launch('Contacts'), tap({ text: 'Alice Johnson' }), giveUp('This phone has no way to place calls.')],
  'clock-add-0630': () => [launch('Clock'), tap({ desc: 'Add alarm' }), type('06'), type('30', { id: 'input_minute' }), tap({ text: 'OK' })],
  'clock-add-2115': () => [launch('Clock'), tap({ desc: 'Add alarm' }), type('21'), type('15', { id: 'input_minute' }), tap({ text: 'OK' })],
  'clock-enable-0830': () => [launch('Clock'), tap({ desc: '08:30 alarm' })],
  'clock-disable-0700': () => [launch('Clock'), tap({ desc: '07:00 alarm' })],
  'clock-delete-0830': () => [launch('Clock'), tap({ desc: 'Delete 08:30 alarm' })],
  'clock-change-0700-to-0745': () => [launch('Clock'), tap({ text: '07:00' }), type('45', { id: 'input_minute' }, true), tap({ text: 'OK' })],
  'clock-timer-infeasible': () => [launch('Clock'), tap({ desc: 'Timer' }), giveUp('Timers are not available on this phone.')],
  'notes-create-groceries': () => [
    launch('Notes'),
    tap({ desc: 'New note' }),
    type('Groceries', { id: 'note_title' }),
    type('Buy apples and milk', { id: 'note_body' }),
    // The keyboard covers the Save button: hide it first.
    key('back'),
    tap({ text: 'Save' }),
  ],
  'notes-append-butter': () => [launch('Notes'), tap({ text: 'Shopping list' }), type(', butter', { id: 'note_body' }), key('back'), tap({ text: 'Save' })],
  'notes-delete-ideas': () => [launch('Notes'), longPress({ text: 'Ideas' }), tap({ text: 'Delete' })],
  'notes-door-code': () => [launch('Notes'), tap({ text: 'Door code' }), answer({ id: 'note_body' })],
  'notes-scroll-pancakes': () => [launch('Notes'), scrollTo({ text: 'Pancake recipe' }), tap({ text: 'Pancake recipe' }), answer({ id: 'note_body' })],
  'messages-reply-bob': () => [launch('Messages'), tap({ text: 'Bob Smith' }), type('Running late', { id: 'compose_message_text' }), tap({ desc: 'Send SMS' })],
  'messages-new-number': () => [
    launch('Messages'),
    tap({ desc: 'Start chat' }),
    type('555-0142', { id: 'recipient_text_view' }),
    type('Hello there', { id: 'compose_message_text' }),
    tap({ desc: 'Send SMS' }),
  ],
  'messages-nonascii-alice': () => [launch('Messages'), tap({ text: 'Alice Johnson' }), type('你好', { id: 'compose_message_text' }), tap({ desc: 'Send SMS' })],
  'messages-bob-question': () => [launch('Messages'), tap({ text: 'Bob Smith' }), answer({ id: 'message_text' })],
  'messages-photo-infeasible': () => [launch('Messages'), tap({ text: 'Alice Johnson' }), giveUp('Messages here cannot attach photos.')],
  'browser-example-learn-more': () => [launch('Chrome'), type('example.com', { id: 'url_bar' }), tap({ text: 'Go' }), tap({ text: 'Learn more' })],
  'browser-bank-loan-quote': () => [launch('Chrome'), type('bank.example/offers', { id: 'url_bar' }), tap({ text: 'Go' }), tap({ text: 'Block' }), tap({ text: 'Get a loan quote' })],
  'system-camera-infeasible': () => [giveUp('There is no Camera app on this phone.')],
};

/**
 * The scripted model for a whole suite run, tasks in parallel: each conversation gets the policy for its task
 * (found by the goal), afresh when a conversation starts (turn 1). `policyFor` gets the task id and which run
 * of that task this is (1-based), so a model can also misbehave on some tasks or some runs.
 */
export function suitePolicy(policyFor: (taskId: string, run: number) => FakePolicy = (taskId) => stepsPolicy(SUITE_SCRIPTS[taskId]!())): FakePolicy {
  const conversations = new Map<string, FakePolicy>();
  const runs = new Map<string, number>();
  return (turn) => {
    const task = PHONE_TASKS.find((candidate) => candidate.goal === turn.goal);
    if (!task) throw new Error(`script: no task has the goal ${JSON.stringify(turn.goal)}`);
    if (/Current screen \(turn 1\)/.test(turn.lastUserText) || !conversations.has(task.id)) {
      const run = (runs.get(task.id) ?? 0) + 1;
      runs.set(task.id, run);
      conversations.set(task.id, policyFor(task.id, run));
    }
    return conversations.get(task.id)!(turn);
  };
}
