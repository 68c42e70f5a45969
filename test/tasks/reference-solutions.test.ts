import { describe, expect, it } from 'vitest';
import { USER_APP_PACKAGES, VirtualPhone } from '@amc/demo-phone';
import { judgeRun, PHONE_TASKS, type PhoneTask } from '../../src/eval/tasks/index';
import { PhoneDriver, type Selector } from './phone-driver';

/**
 * A scripted solution per task, made only of shell commands: `input` at coordinates read from the current
 * `uiautomator dump`, `ime`/`am broadcast` for non-ASCII text. A step that returns a string gives the final answer.
 */
type Step = string | ((driver: PhoneDriver) => Promise<string | void>);

const tap = (selector: Selector): Step => (driver) => driver.tap(selector);
const longPress = (selector: Selector): Step => (driver) => driver.longPress(selector);
const type = (text: string): Step => (driver) => driver.type(text);
const typeUnicode = (text: string): Step => (driver) => driver.typeUnicode(text);
const scrollTo = (selector: Selector): Step => (driver) => driver.scrollTo(selector);
const readText = (selector: Selector): Step => async (driver) => (await driver.get(selector)).text;
const readAfter = (label: Selector, value: Selector): Step => (driver) => driver.textAfter(label, value);
const openApp = (label: string): Step[] => ['input keyevent KEYCODE_HOME', tap({ desc: label, pkg: 'com.android.launcher3' })];
const GIVE_UP: Step = async () => 'This phone cannot do that.';

const SOLUTIONS: Record<string, Step[]> = {
  'settings-wifi-off': [...openApp('Settings'), tap({ text: 'Network & internet' }), tap({ text: 'Wi-Fi' })],
  'settings-bluetooth-on': ['monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', tap({ text: 'Connected devices' }), tap({ text: 'Bluetooth' })],
  'settings-dark-theme-on': [...openApp('Settings'), tap({ text: 'Display' }), tap({ text: 'Dark theme' })],
  'settings-airplane-mode-on': ['am start -n com.android.settings/.Settings', tap({ text: 'Network & internet' }), tap({ text: 'Airplane mode' })],
  'settings-wifi-on-behind-popup': [tap({ text: 'OK' }), ...openApp('Settings'), tap({ text: 'Network & internet' }), tap({ text: 'Wi-Fi' })],
  'settings-android-version': [
    ...openApp('Settings'),
    scrollTo({ text: 'About phone' }),
    tap({ text: 'About phone' }),
    readAfter({ text: 'Android version' }, { id: 'summary' }),
  ],
  'settings-build-number': [
    ...openApp('Settings'),
    scrollTo({ text: 'About phone' }),
    tap({ text: 'About phone' }),
    readAfter({ text: 'Build number' }, { id: 'summary' }),
  ],

  'contacts-add-dave': [
    ...openApp('Contacts'),
    tap({ text: 'Allow' }),
    tap({ desc: 'Create contact' }),
    tap({ id: 'editor_name' }),
    type('Dave Brown'),
    tap({ id: 'editor_phone' }),
    type('555-0199'),
    tap({ text: 'Save' }),
  ],
  'contacts-add-li-lei': [
    ...openApp('Contacts'),
    tap({ desc: 'Create contact' }),
    tap({ id: 'editor_name' }),
    typeUnicode('李雷'),
    tap({ id: 'editor_phone' }),
    type('13800138000'),
    tap({ text: 'Save' }),
  ],
  'contacts-bob-number': [...openApp('Contacts'), tap({ text: 'Bob Smith' }), readText({ id: 'header' })],
  'contacts-delete-carol': [...openApp('Contacts'), tap({ text: 'Carol Williams' }), tap({ desc: 'Delete' }), tap({ text: 'Delete' })],
  'contacts-scroll-zoe': [...openApp('Contacts'), scrollTo({ text: 'Zoe Young' }), tap({ text: 'Zoe Young' }), readText({ id: 'header' })],
  'contacts-call-infeasible': [...openApp('Contacts'), tap({ text: 'Alice Johnson' }), GIVE_UP],

  'clock-add-0630': [...openApp('Clock'), tap({ desc: 'Add alarm' }), type('06'), tap({ id: 'input_minute' }), type('30'), tap({ text: 'OK' })],
  'clock-add-2115': [...openApp('Clock'), tap({ desc: 'Add alarm' }), type('21'), tap({ id: 'input_minute' }), type('15'), tap({ text: 'OK' })],
  'clock-enable-0830': [...openApp('Clock'), tap({ desc: '08:30 alarm' })],
  'clock-disable-0700': [...openApp('Clock'), tap({ desc: '07:00 alarm' })],
  'clock-delete-0830': [...openApp('Clock'), tap({ desc: 'Delete 08:30 alarm' })],
  'clock-change-0700-to-0745': [
    ...openApp('Clock'),
    tap({ text: '07:00' }),
    tap({ id: 'input_minute' }),
    'input keyevent KEYCODE_DEL KEYCODE_DEL',
    type('45'),
    tap({ text: 'OK' }),
  ],
  'clock-timer-infeasible': [...openApp('Clock'), tap({ desc: 'Timer' }), readText({ textContains: 'not available' })],

  'notes-create-groceries': [
    ...openApp('Notes'),
    tap({ desc: 'New note' }),
    tap({ id: 'note_title' }),
    type('Groceries'),
    tap({ id: 'note_body' }),
    type('Buy apples and milk'),
    // The keyboard covers the Save button: hide it first.
    'input keyevent KEYCODE_BACK',
    tap({ text: 'Save' }),
  ],
  'notes-append-butter': [...openApp('Notes'), tap({ text: 'Shopping list' }), tap({ id: 'note_body' }), type(', butter'), 'input keyevent 4', tap({ text: 'Save' })],
  'notes-delete-ideas': [...openApp('Notes'), longPress({ text: 'Ideas' }), tap({ text: 'Delete' })],
  'notes-door-code': [...openApp('Notes'), tap({ text: 'Door code' }), readText({ id: 'note_body' })],
  'notes-scroll-pancakes': [...openApp('Notes'), scrollTo({ text: 'Pancake recipe' }), tap({ text: 'Pancake recipe' }), readText({ id: 'note_body' })],

  'messages-reply-bob': [...openApp('Messages'), tap({ text: 'Bob Smith' }), tap({ id: 'compose_message_text' }), type('Running late'), tap({ desc: 'Send SMS' })],
  'messages-new-number': [
    ...openApp('Messages'),
    tap({ desc: 'Start chat' }),
    tap({ id: 'recipient_text_view' }),
    type('555-0142'),
    tap({ id: 'compose_message_text' }),
    type('Hello there'),
    tap({ desc: 'Send SMS' }),
  ],
  'messages-nonascii-alice': [...openApp('Messages'), tap({ text: 'Alice Johnson' }), tap({ id: 'compose_message_text' }), typeUnicode('你好'), tap({ desc: 'Send SMS' })],
  'messages-bob-question': [...openApp('Messages'), tap({ text: 'Bob Smith' }), readText({ id: 'message_text' })],
  'messages-photo-infeasible': [...openApp('Messages'), tap({ text: 'Alice Johnson' }), GIVE_UP],

  'browser-example-learn-more': [...openApp('Chrome'), tap({ id: 'url_bar' }), type('example.com'), tap({ text: 'Go' }), tap({ text: 'Learn more' })],
  'browser-bank-loan-quote': [...openApp('Chrome'), tap({ id: 'url_bar' }), type('bank.example/offers'), tap({ text: 'Go' }), tap({ text: 'Block' }), tap({ text: 'Get a loan quote' })],

  'system-camera-infeasible': ['pm list packages', GIVE_UP],
};

function freshPhone(task: PhoneTask): VirtualPhone {
  const phone = new VirtualPhone();
  phone.reset(task.seed);
  for (const fault of task.faults ?? []) phone.injectFault(fault);
  return phone;
}

async function solve(task: PhoneTask): Promise<{ phone: VirtualPhone; answer: string | undefined; driver: PhoneDriver }> {
  const phone = freshPhone(task);
  const driver = new PhoneDriver(phone);
  let answer: string | undefined;
  for (const step of SOLUTIONS[task.id] ?? []) {
    const result = typeof step === 'string' ? await driver.sh(step) : await step(driver);
    if (typeof result === 'string') answer = result;
  }
  return { phone, answer, driver };
}

describe('task suite', () => {
  it('has at least 24 tasks with unique ids across every app and kind', () => {
    expect(PHONE_TASKS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(PHONE_TASKS.map((task) => task.id)).size).toBe(PHONE_TASKS.length);
    expect(new Set(PHONE_TASKS.map((task) => task.app))).toEqual(new Set(['settings', 'contacts', 'clock', 'notes', 'messages', 'browser', 'system']));
    expect(new Set(PHONE_TASKS.map((task) => task.kind))).toEqual(new Set(['toggle', 'form', 'question', 'edit', 'infeasible']));
    expect(PHONE_TASKS.some((task) => /[^ -~]/.test(task.goal))).toBe(true);
    expect(PHONE_TASKS.some((task) => task.faults?.length)).toBe(true);
    expect(PHONE_TASKS.filter((task) => task.infeasible).every((task) => task.kind === 'infeasible')).toBe(true);
    expect(Object.keys(SOLUTIONS).sort()).toEqual(PHONE_TASKS.map((task) => task.id).sort());
    expect(USER_APP_PACKAGES).toHaveLength(6);
  });

  describe('Scenario: Every task has a reference solution its validator accepts', () => {
    for (const task of PHONE_TASKS) {
      it(task.id, async () => {
        const { phone, answer, driver } = await solve(task);
        const verdict = judgeRun(task, phone.state(), { success: !task.infeasible, reason: answer ?? 'Done.' });
        expect(verdict, `${verdict.why}\ncommands:\n${driver.log.join('\n')}`).toMatchObject({ ok: true });
        expect(driver.log.every((command) => !/^(am broadcast|ime set)/.test(command) || /[^ -~]/.test(task.goal))).toBe(true);
      });
    }
  });

  describe('Scenario: Validators reject the untouched phone', () => {
    for (const task of PHONE_TASKS.filter((candidate) => !candidate.infeasible)) {
      it(task.id, () => {
        const verdict = task.validate(freshPhone(task).state(), undefined);
        expect(verdict.ok).toBe(false);
        expect(verdict.why).not.toBe('');
      });
    }
  });

  it('Scenario: Infeasible tasks only pass with finish_task(success=false)', () => {
    const infeasible = PHONE_TASKS.filter((task) => task.infeasible);
    expect(infeasible.length).toBeGreaterThanOrEqual(3);
    for (const task of infeasible) {
      const state = freshPhone(task).state();
      expect(judgeRun(task, state, { success: true, reason: 'Done.' }).ok).toBe(false);
      expect(judgeRun(task, state, { success: false, reason: 'There is no way to do this here.' }).ok).toBe(true);
    }
    const feasible = PHONE_TASKS.find((task) => !task.infeasible) as PhoneTask;
    expect(judgeRun(feasible, freshPhone(feasible).state(), { success: false, reason: 'gave up' })).toMatchObject({ ok: false, why: 'the agent gave up: gave up' });
  });

  it('question validators reject a wrong answer', () => {
    const questions = PHONE_TASKS.filter((task) => task.kind === 'question');
    expect(questions.length).toBeGreaterThanOrEqual(5);
    for (const task of questions) {
      expect(task.validate(freshPhone(task).state(), 'I could not find it').ok).toBe(false);
    }
  });
});
