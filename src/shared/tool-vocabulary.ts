/**
 * Every tool's kind and the form of its words, declared once here, where every reader can see them: the timeline,
 * History, the report and the CLI word a call by its form (action-words.ts), the counts tell an action from a turn
 * by its kind (turns.ts), and src/core's tool definitions take their kind from this table by name. A tool's verb is
 * the catalog key `common:action.verb.<name>` in every language (a test fails when one is missing).
 */

/**
 * What a call of the tool is: `phone` sends something to the phone; `look` and `wait` run on the phone's turn but
 * send nothing (a look counts as an action, a pause does not); `question`, `hand-over` and `finish` are answered by
 * the runtime (the person is asked, the phone is handed over, the task ends), never by the phone.
 */
export type ToolKind = 'phone' | 'look' | 'wait' | 'question' | 'hand-over' | 'finish';

/**
 * Which of a call's arguments follow its verb in words: `point` an element or a point ("Tap 'Send'"), `swipe` a
 * direction or two points, `text` the typed text and its field, `key` a key's name, `app` an app, `url` an address,
 * `seconds` a pause, `question`, `reason` (a hand-over's) and `finish` (the goal reached or not); `verb` nothing.
 */
export type ToolPhrase = 'point' | 'swipe' | 'text' | 'key' | 'app' | 'url' | 'seconds' | 'question' | 'reason' | 'finish' | 'verb';

export interface ToolWords {
  kind: ToolKind;
  phrase: ToolPhrase;
}

export const TOOL_VOCABULARY = {
  tap: { kind: 'phone', phrase: 'point' },
  long_press: { kind: 'phone', phrase: 'point' },
  double_tap: { kind: 'phone', phrase: 'point' },
  swipe: { kind: 'phone', phrase: 'swipe' },
  type_text: { kind: 'phone', phrase: 'text' },
  press_key: { kind: 'phone', phrase: 'key' },
  launch_app: { kind: 'phone', phrase: 'app' },
  open_url: { kind: 'phone', phrase: 'url' },
  stop_app: { kind: 'phone', phrase: 'app' },
  clear_app: { kind: 'phone', phrase: 'app' },
  erase_text: { kind: 'phone', phrase: 'verb' },
  hide_keyboard: { kind: 'phone', phrase: 'verb' },
  wait: { kind: 'wait', phrase: 'seconds' },
  describe_screen: { kind: 'look', phrase: 'verb' },
  ask_user: { kind: 'question', phrase: 'question' },
  hand_over: { kind: 'hand-over', phrase: 'reason' },
  finish_task: { kind: 'finish', phrase: 'finish' },
} as const satisfies Record<string, ToolWords>;

export type ToolName = keyof typeof TOOL_VOCABULARY;

/** The tools the runtime answers itself, named where the runtime and the records refer to them. */
export const ASK_USER = 'ask_user' satisfies ToolName;
export const HAND_OVER = 'hand_over' satisfies ToolName;
export const FINISH_TASK = 'finish_task' satisfies ToolName;

/** A tool's kind and words by its name as a record keeps it; undefined for a name this build does not know. */
export function toolWords(name: string): ToolWords | undefined {
  return Object.hasOwn(TOOL_VOCABULARY, name) ? TOOL_VOCABULARY[name as ToolName] : undefined;
}

/**
 * A tool's kind by name. A name this build does not know (a model's invented tool, an older record's) was sent to
 * the Executor, which refused or ran it on the phone: a `phone` call.
 */
export function toolKind(name: string): ToolKind {
  return toolWords(name)?.kind ?? 'phone';
}

/** Whether the call ends the task (the model's or a flow's claim that the goal is reached, or cannot be). */
export const isFinish = (name: string): boolean => toolKind(name) === 'finish';

/** Whether the runtime answers the call through the person (a question or a hand-over), not the phone. */
export const asksThePerson = (name: string): boolean => ['question', 'hand-over'].includes(toolKind(name));
