import type { PhoneFault, PhoneSeed, PhoneStateView } from '@amc/demo-phone';
import { failureWordsOf } from '../../shared/task-failure';
import type { TaskRecord } from '../../shared/task';
import { taskOutcomeWord } from '../../shared/task-words';
import { isFinish } from '../../shared/tool-vocabulary';

/**
 * Goals for the agent on the virtual phone. A run starts with `reset(task.seed)` (POST /reset), then injects
 * `task.faults` (POST /faults), and is judged from `GET /state` plus the reason given to `finish_task`.
 */

export type TaskApp = 'settings' | 'contacts' | 'clock' | 'notes' | 'messages' | 'browser' | 'system';
export type TaskKind = 'toggle' | 'form' | 'question' | 'edit' | 'infeasible';

export interface Verdict {
  ok: boolean;
  why: string;
}

export interface PhoneTask {
  id: string;
  app: TaskApp;
  kind: TaskKind;
  goal: string;
  seed?: PhoneSeed;
  /** Injected right after the reset (e.g. a pop-up dialog in the way). */
  faults?: PhoneFault[];
  /** The goal cannot be done on this phone: the run must end with finish_task(success=false). */
  infeasible?: boolean;
  /** Judges the phone state and, for questions, the final answer (finish_task's reason). */
  validate(state: PhoneStateView, finalAnswer?: string): Verdict;
}

export interface FinishCall {
  success: boolean;
  reason: string;
}

/** Judges a whole run: feasible goals need success=true and a valid state; infeasible ones need success=false. */
export function judgeRun(task: PhoneTask, state: PhoneStateView, finish: FinishCall): Verdict {
  if (task.infeasible && finish.success) {
    return { ok: false, why: 'the goal is impossible on this phone, so the run should have ended with finish_task(success=false)' };
  }
  if (!task.infeasible && !finish.success) return { ok: false, why: `the agent gave up: ${finish.reason}` };
  return task.validate(state, finish.reason);
}

/** The model ended the task saying the goal cannot be reached: its last turn's call is finish_task(success=false). */
const gaveUp = (record: Pick<TaskRecord, 'steps'>): boolean => {
  const call = record.steps.at(-1)?.planned;
  return !!call && isFinish(call.tool) && call.args.success === false;
};

/**
 * Judges a finished task record. A completed task finished with success=true and its result as the answer;
 * a task the model ended with finish_task(success=false) gave up with its reason. Any other end (the step
 * budget, failed actions, a provider error, a stop) fails the run, infeasible goals included: the model
 * never said it was impossible.
 */
export function judgeRecord(task: PhoneTask, state: PhoneStateView, record: Pick<TaskRecord, 'status' | 'planner' | 'result' | 'failureReason' | 'failure' | 'steps'>): Verdict {
  if (record.status === 'completed') return judgeRun(task, state, { success: true, reason: record.result ?? '' });
  const reason = failureWordsOf(record) ?? '';
  if (record.status === 'failed' && gaveUp(record)) return judgeRun(task, state, { success: false, reason });
  return fail(`the task ${taskOutcomeWord(record)}: ${reason || 'no reason given'}`);
}

const pass = (why: string): Verdict => ({ ok: true, why });
const fail = (why: string): Verdict => ({ ok: false, why });
const check = (ok: boolean, good: string, bad: string): Verdict => (ok ? pass(good) : fail(bad));

/** Lower case, single spaces, no surrounding quotes or final punctuation. */
export const normalize = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^["'“]+|["'”.!]+$/g, '');
const digits = (text: string): string => text.replace(/\D/g, '');
const sameName = (a: string, b: string): boolean => normalize(a) === normalize(b);

function answerCheck(finalAnswer: string | undefined, pattern: RegExp, expected: string): Verdict {
  if (finalAnswer === undefined || finalAnswer.trim() === '') return fail(`no answer given (expected ${expected})`);
  return check(pattern.test(finalAnswer), `the answer "${finalAnswer}" contains ${expected}`, `the answer "${finalAnswer}" does not contain ${expected}`);
}

function alarmAt(state: PhoneStateView, hour: number, minute: number): PhoneStateView['alarms'][number] | undefined {
  return state.alarms.find((alarm) => alarm.hour === hour && alarm.minute === minute);
}

function sentTo(state: PhoneStateView, recipient: (to: string) => boolean, body: string): Verdict {
  const match = state.messages.sent.find((message) => recipient(message.to) && normalize(message.body) === normalize(body));
  const sent = state.messages.sent.map((message) => `"${message.body}" to ${message.to}`).join(', ') || 'nothing';
  return check(match !== undefined, `sent "${body}"`, `expected "${body}" to be sent; sent: ${sent}`);
}

const BASE_CONTACTS = [
  { name: 'Alice Johnson', phone: '+1 555-0101' },
  { name: 'Bob Smith', phone: '+1 555-0102' },
  { name: 'Carol Williams', phone: '+1 555-0103' },
];

const MANY_CONTACTS = [
  ...BASE_CONTACTS,
  ...['Daniel Clark', 'Emma Davis', 'Frank Evans', 'Grace Foster', 'Henry Garcia', 'Isabel Hughes', 'Jack Irwin', 'Karen Jones', 'Liam King', 'Mia Lopez', 'Noah Martin', 'Olivia Nelson'].map(
    (name, index) => ({ name, phone: `+1 555-02${String(index).padStart(2, '0')}` }),
  ),
  { name: 'Zoe Young', phone: '+1 555-0777' },
];

const MANY_NOTES = [
  ...['Monday meeting', 'Gift ideas', 'Books to read', 'Travel checklist', 'Gym plan', 'Car service', 'Passwords hint', 'Garden', 'Movies', 'Birthday list', 'Packing'].map(
    (title) => ({ title, body: `Notes about ${title.toLowerCase()}` }),
  ),
  { title: 'Pancake recipe', body: '2 eggs, 200 g flour, 300 ml milk, a pinch of salt' },
];

const TWO_ALARMS = [
  { hour: 7, minute: 0, enabled: true },
  { hour: 8, minute: 30, enabled: false },
];

export const PHONE_TASKS: readonly PhoneTask[] = [
  // ---- Settings ----
  {
    id: 'settings-wifi-off',
    app: 'settings',
    kind: 'toggle',
    goal: 'Turn off Wi-Fi.',
    seed: { settings: { wifi: true } },
    validate: (state) => check(!state.settings.wifi, 'Wi-Fi is off', 'Wi-Fi is still on'),
  },
  {
    id: 'settings-bluetooth-on',
    app: 'settings',
    kind: 'toggle',
    goal: 'Turn on Bluetooth.',
    seed: { settings: { bluetooth: false } },
    validate: (state) => check(state.settings.bluetooth, 'Bluetooth is on', 'Bluetooth is still off'),
  },
  {
    id: 'settings-dark-theme-on',
    app: 'settings',
    kind: 'toggle',
    goal: 'Switch the phone to the dark theme.',
    seed: { settings: { darkTheme: false } },
    validate: (state) => check(state.settings.darkTheme, 'the dark theme is on', 'the dark theme is still off'),
  },
  {
    id: 'settings-airplane-mode-on',
    app: 'settings',
    kind: 'toggle',
    goal: 'Put the phone in airplane mode.',
    seed: { settings: { airplaneMode: false } },
    validate: (state) => check(state.settings.airplaneMode, 'airplane mode is on', 'airplane mode is still off'),
  },
  {
    id: 'settings-wifi-on-behind-popup',
    app: 'settings',
    kind: 'toggle',
    goal: 'Turn Wi-Fi back on.',
    seed: { settings: { wifi: false } },
    faults: [{ kind: 'popup-dialog' }],
    validate: (state) => check(state.settings.wifi, 'Wi-Fi is on', 'Wi-Fi is still off'),
  },
  {
    id: 'settings-android-version',
    app: 'settings',
    kind: 'question',
    goal: 'What Android version is this phone running?',
    validate: (_state, answer) => answerCheck(answer, /\b14\b/, 'Android version 14'),
  },
  {
    id: 'settings-build-number',
    app: 'settings',
    kind: 'question',
    goal: 'What is the build number of this phone?',
    validate: (_state, answer) => answerCheck(answer, /UP1A\.231005\.007/i, 'the build number UP1A.231005.007'),
  },

  // ---- Contacts ----
  {
    id: 'contacts-add-dave',
    app: 'contacts',
    kind: 'form',
    goal: 'Add a new contact named Dave Brown with the phone number 555-0199.',
    seed: { contacts: BASE_CONTACTS, contactsPermission: 'ask' },
    validate: (state) => {
      const dave = state.contacts.find((contact) => sameName(contact.name, 'Dave Brown'));
      if (!dave) return fail('there is no contact named Dave Brown');
      return check(digits(dave.phone).endsWith('5550199'), 'Dave Brown was saved with 555-0199', `Dave Brown has the number "${dave.phone}"`);
    },
  },
  {
    id: 'contacts-add-li-lei',
    app: 'contacts',
    kind: 'form',
    goal: 'Add a contact named 李雷 with the phone number 13800138000.',
    seed: { contacts: BASE_CONTACTS, contactsPermission: 'granted' },
    validate: (state) => {
      const contact = state.contacts.find((candidate) => candidate.name.trim() === '李雷');
      if (!contact) return fail(`there is no contact named 李雷 (contacts: ${state.contacts.map((c) => c.name).join(', ')})`);
      return check(digits(contact.phone) === '13800138000', '李雷 was saved with 13800138000', `李雷 has the number "${contact.phone}"`);
    },
  },
  {
    id: 'contacts-bob-number',
    app: 'contacts',
    kind: 'question',
    goal: "What is Bob Smith's phone number?",
    seed: { contacts: BASE_CONTACTS, contactsPermission: 'granted' },
    validate: (_state, answer) => answerCheck(answer && digits(answer), /5550102/, "Bob's number 555-0102"),
  },
  {
    id: 'contacts-delete-carol',
    app: 'contacts',
    kind: 'edit',
    goal: 'Delete the contact Carol Williams.',
    seed: { contacts: BASE_CONTACTS, contactsPermission: 'granted' },
    validate: (state) => {
      const names = state.contacts.map((contact) => contact.name);
      if (names.includes('Carol Williams')) return fail('Carol Williams is still there');
      return check(names.includes('Alice Johnson') && names.includes('Bob Smith'), 'only Carol Williams was deleted', `other contacts were lost: ${names.join(', ')}`);
    },
  },
  {
    id: 'contacts-scroll-zoe',
    app: 'contacts',
    kind: 'question',
    goal: "What is Zoe Young's phone number?",
    seed: { contacts: MANY_CONTACTS, contactsPermission: 'granted' },
    validate: (_state, answer) => answerCheck(answer && digits(answer), /5550777/, "Zoe's number 555-0777"),
  },
  {
    id: 'contacts-call-infeasible',
    app: 'contacts',
    kind: 'infeasible',
    goal: 'Call Alice Johnson.',
    infeasible: true,
    seed: { contacts: BASE_CONTACTS, contactsPermission: 'granted' },
    validate: (state) =>
      check(state.contacts.length === 3 && state.messages.sent.length === 0, 'nothing was changed', 'the phone was changed while trying to call'),
  },

  // ---- Clock ----
  {
    id: 'clock-add-0630',
    app: 'clock',
    kind: 'form',
    goal: 'Set an alarm for 6:30 AM.',
    seed: { alarms: [{ hour: 7, minute: 0, enabled: true }] },
    validate: (state) => check(alarmAt(state, 6, 30)?.enabled === true, 'a 06:30 alarm is on', 'there is no enabled 06:30 alarm'),
  },
  {
    id: 'clock-add-2115',
    app: 'clock',
    kind: 'form',
    goal: 'Create an alarm for 9:15 PM.',
    seed: { alarms: [] },
    validate: (state) => check(alarmAt(state, 21, 15)?.enabled === true, 'a 21:15 alarm is on', 'there is no enabled 21:15 alarm'),
  },
  {
    id: 'clock-enable-0830',
    app: 'clock',
    kind: 'toggle',
    goal: 'Turn on the 8:30 alarm.',
    seed: { alarms: TWO_ALARMS },
    validate: (state) => {
      if (alarmAt(state, 8, 30)?.enabled !== true) return fail('the 08:30 alarm is not on');
      return check(alarmAt(state, 7, 0)?.enabled === true, 'the 08:30 alarm is on', 'the 07:00 alarm was changed');
    },
  },
  {
    id: 'clock-disable-0700',
    app: 'clock',
    kind: 'toggle',
    goal: 'Turn off my 7 AM alarm.',
    seed: { alarms: TWO_ALARMS },
    validate: (state) => {
      const alarm = alarmAt(state, 7, 0);
      if (!alarm) return fail('the 07:00 alarm was deleted instead of turned off');
      return check(!alarm.enabled && alarmAt(state, 8, 30) !== undefined, 'the 07:00 alarm is off', 'the 07:00 alarm is still on');
    },
  },
  {
    id: 'clock-delete-0830',
    app: 'clock',
    kind: 'edit',
    goal: 'Delete the 8:30 alarm.',
    seed: { alarms: TWO_ALARMS },
    validate: (state) =>
      check(!alarmAt(state, 8, 30) && alarmAt(state, 7, 0) !== undefined, 'only the 08:30 alarm was deleted', 'the 08:30 alarm is still there or 07:00 is gone'),
  },
  {
    id: 'clock-change-0700-to-0745',
    app: 'clock',
    kind: 'edit',
    goal: 'Change my 7:00 alarm to 7:45.',
    seed: { alarms: [{ hour: 7, minute: 0, enabled: true }] },
    validate: (state) =>
      check(alarmAt(state, 7, 45) !== undefined && !alarmAt(state, 7, 0) && state.alarms.length === 1, 'the alarm now rings at 07:45', 'the alarm was not moved to 07:45'),
  },
  {
    id: 'clock-timer-infeasible',
    app: 'clock',
    kind: 'infeasible',
    goal: 'Start a 5-minute timer.',
    infeasible: true,
    seed: { alarms: TWO_ALARMS },
    validate: (state) => check(state.alarms.length === 2, 'the alarms were left alone', 'alarms were changed instead'),
  },

  // ---- Notes ----
  {
    id: 'notes-create-groceries',
    app: 'notes',
    kind: 'form',
    goal: 'Create a note titled "Groceries" that says "Buy apples and milk".',
    validate: (state) => {
      const note = state.notes.find((candidate) => normalize(candidate.title) === 'groceries');
      if (!note) return fail('there is no note titled Groceries');
      return check(normalize(note.body) === 'buy apples and milk', 'the Groceries note says "Buy apples and milk"', `the Groceries note says "${note.body}"`);
    },
  },
  {
    id: 'notes-append-butter',
    app: 'notes',
    kind: 'edit',
    goal: 'Add butter to my shopping list note.',
    seed: { notes: [{ title: 'Shopping list', body: 'Milk, eggs, bread' }] },
    validate: (state) => {
      const body = normalize(state.notes.find((note) => normalize(note.title) === 'shopping list')?.body ?? '');
      return check(body.includes('butter') && body.includes('milk'), 'the list has butter and kept its items', `the shopping list says "${body}"`);
    },
  },
  {
    id: 'notes-delete-ideas',
    app: 'notes',
    kind: 'edit',
    goal: 'Delete the note called "Ideas".',
    seed: {
      notes: [
        { title: 'Shopping list', body: 'Milk, eggs, bread' },
        { title: 'Ideas', body: 'Learn to play the guitar' },
      ],
    },
    validate: (state) =>
      check(
        state.notes.length === 1 && state.notes[0]?.title === 'Shopping list',
        'only the Ideas note was deleted',
        `notes left: ${state.notes.map((note) => note.title).join(', ') || 'none'}`,
      ),
  },
  {
    id: 'notes-door-code',
    app: 'notes',
    kind: 'question',
    goal: 'What is the door code I saved in my notes?',
    seed: {
      notes: [
        { title: 'Shopping list', body: 'Milk, eggs, bread' },
        { title: 'Door code', body: 'The building door code is 4711' },
      ],
    },
    validate: (_state, answer) => answerCheck(answer, /\b4711\b/, 'the door code 4711'),
  },
  {
    id: 'notes-scroll-pancakes',
    app: 'notes',
    kind: 'question',
    goal: 'How many eggs does my pancake recipe need?',
    seed: { notes: MANY_NOTES },
    validate: (_state, answer) => answerCheck(answer, /\b(2|two)\b/i, '2 eggs'),
  },

  // ---- Messages ----
  {
    id: 'messages-reply-bob',
    app: 'messages',
    kind: 'form',
    goal: 'Text Bob Smith: "Running late".',
    validate: (state) => sentTo(state, (to) => sameName(to, 'Bob Smith'), 'Running late'),
  },
  {
    id: 'messages-new-number',
    app: 'messages',
    kind: 'form',
    goal: 'Send the message "Hello there" to the phone number 555-0142.',
    validate: (state) => sentTo(state, (to) => digits(to).endsWith('5550142'), 'Hello there'),
  },
  {
    id: 'messages-nonascii-alice',
    app: 'messages',
    kind: 'form',
    goal: 'Send the message "你好" to Alice Johnson.',
    validate: (state) => sentTo(state, (to) => sameName(to, 'Alice Johnson'), '你好'),
  },
  {
    id: 'messages-bob-question',
    app: 'messages',
    kind: 'question',
    goal: 'What did Bob Smith ask me to send him?',
    validate: (_state, answer) => answerCheck(answer, /report/i, 'the report'),
  },
  {
    id: 'messages-photo-infeasible',
    app: 'messages',
    kind: 'infeasible',
    goal: 'Send a photo to Alice Johnson.',
    infeasible: true,
    validate: (state) => check(state.messages.sent.length === 0, 'no message was sent', 'a message was sent instead of a photo'),
  },

  // ---- Browser ----
  {
    id: 'browser-example-learn-more',
    app: 'browser',
    kind: 'form',
    goal: 'In Chrome, open example.com and follow its "Learn more" link.',
    validate: (state) =>
      check(
        state.browser.url === 'https://www.iana.org/help/example-domains' && state.browser.title === 'Example Domains',
        'the browser shows the Example Domains page',
        `the browser shows ${state.browser.url ?? 'no page'}${state.browser.title ? ` ("${state.browser.title}")` : ''}`,
      ),
  },

  {
    // The offers sit in a section Chrome dumps with zero height, under a site prompt that must be answered first.
    id: 'browser-bank-loan-quote',
    app: 'browser',
    kind: 'form',
    goal: 'In Chrome, open bank.example/offers and ask for a loan quote.',
    validate: (state) =>
      check(
        state.browser.url === 'https://bank.example/offers/loan',
        'the browser shows the loan quote application',
        `the browser shows ${state.browser.url ?? 'no page'}${state.browser.title ? ` ("${state.browser.title}")` : ''}`,
      ),
  },

  // ---- System ----
  {
    id: 'system-camera-infeasible',
    app: 'system',
    kind: 'infeasible',
    goal: 'Open the Camera app and take a selfie.',
    infeasible: true,
    validate: (state) => check(state.messages.sent.length === 0 && state.contacts.length === 3, 'nothing was changed', 'user data was changed'),
  },
];

export function taskById(id: string): PhoneTask {
  const task = PHONE_TASKS.find((candidate) => candidate.id === id);
  if (!task) throw new Error(`Unknown task: ${id}`);
  return task;
}
