import { isSwipeDirection, type StepOutcome } from './action';
import { ENGLISH, type Words } from './i18n/translate';
import { elementName, nameInLabel, type SceneElement } from './scene';
import type { StepRecord } from './task';

/**
 * Actions in a person's words ("Tap 'Network & internet'", "Opened Settings"), one wording for the timeline, the
 * guards' messages, the confirmation card, the HTML report and the terminal. The tool names and arguments stay
 * available in a step's details; these lines are for reading. English (catalog area `common`, `action.*`) unless
 * given another language's `words`: the guards' messages, which the model hears, are always English.
 */

/** The tools through which the model reaches the person, not the phone (the runtime answers them). */
export const ASK_USER = 'ask_user';
export const HAND_OVER = 'hand_over';

/** The outcome of an action the person said no to (what the model hears and the record keeps: never translated). */
export const DENIED = 'the person denied this action';

/** Whether the person said no to this step's action: neither a failure of the agent nor an action taken. */
export const isDenied = (outcome: Pick<StepOutcome, 'ok' | 'error'>): boolean => !outcome.ok && outcome.error === DENIED;

/** A pause the model asks for: time passes, nothing is done. */
export const WAIT = 'wait';

type Mood = 'do' | 'done';
/** The tools with words of their own; any other is shown with its arguments. */
const WORDED_TOOLS = new Set(['tap', 'double_tap', 'long_press', 'swipe', 'type_text', 'press_key', 'launch_app', WAIT, 'describe_screen', 'finish_task', ASK_USER, HAND_OVER]);

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const point = (x: unknown, y: unknown) => (typeof x === 'number' && typeof y === 'number' ? `(${x}, ${y})` : undefined);
/** A key as it is printed on it: `back` → "Back", `volume_up` → "Volume up". */
const keyWords = (key: string) => {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * One action as a person says it: "Tap 'Network & internet'", "Type "hello" into 'To' and press Enter",
 * "Press Back", "Open Settings"; `done` for what already happened ("Opened Settings"). `target` is the element's
 * name as a person reads it (see `elementName`). An unknown tool is shown with its arguments.
 */
export function actionPhrase(tool: string, args: Record<string, unknown>, target?: string | null, mood: Mood = 'do', words: Words = ENGLISH): string {
  if (!WORDED_TOOLS.has(tool)) return `${tool} ${clip(JSON.stringify(args), 120)}`;
  const { t } = words;
  const verb = t(`common:action.verb.${tool}.${mood}`);
  const on = target ? t('common:action.target', { name: clip(target, 60) }) : undefined;
  switch (tool) {
    case 'tap':
    case 'double_tap':
    case 'long_press': {
      const at = point(args.x, args.y);
      return [verb, on ?? (at && t('common:action.at', { point: at }))].filter(Boolean).join(' ');
    }
    case 'swipe': {
      const from = point(args.from_x, args.from_y);
      const to = point(args.to_x, args.to_y);
      const direction = text(args.direction);
      const way = direction
        ? isSwipeDirection(direction)
          ? t(`common:action.direction.${direction}`)
          : direction
        : from && to
          ? t('common:action.fromTo', { from, to })
          : undefined;
      return [verb, way, on && t('common:action.on', { target: on })].filter(Boolean).join(' ');
    }
    case 'type_text':
      return [
        verb,
        t('common:action.text', { text: clip(text(args.text) ?? '', 60) }),
        on && t('common:action.into', { target: on }),
        args.submit === true && t(`common:action.pressEnter.${mood}`),
      ]
        .filter(Boolean)
        .join(' ');
    case 'press_key':
      return `${verb} ${keyWords(text(args.key) ?? t('common:action.aKey'))}`;
    case 'launch_app':
      return `${verb} ${text(args.app) ?? text(args.package) ?? t('common:action.anApp')}`;
    case 'wait':
      // Rounded to a tenth: a wait worked out by a model or a flow can carry float noise (0.21000000000000002).
      return typeof args.seconds === 'number' ? t('common:action.seconds', { verb, seconds: Math.round(args.seconds * 10) / 10 }) : verb;
    case 'finish_task':
      return t(args.success === false ? 'common:action.unreachable' : 'common:action.reached', { verb });
    case ASK_USER:
      return t('common:action.ask', { verb, question: t('common:action.text', { text: clip(text(args.question) ?? '', 120) }) });
    case HAND_OVER:
      return text(args.reason) ? t('common:action.because', { verb, reason: clip(text(args.reason)!, 120) }) : verb;
    default:
      return verb;
  }
}

/** The Scene element a turn's action was aimed at: by the planner's `element_id`, else by the executor's target. */
export function targetElement(step: Pick<StepRecord, 'scene' | 'planned' | 'outcome'>): SceneElement | undefined {
  const elements = step.scene?.elements ?? [];
  const requested = step.planned?.args.element_id;
  const id = typeof requested === 'string' ? requested : step.outcome?.target?.elementId;
  return id ? elements.find((element) => element.id === id) : undefined;
}

/** A recorded turn's action as a person says it ("Tap 'Network & internet'"); null before the planner chose one. */
export function stepPhrase(step: Pick<StepRecord, 'scene' | 'planned' | 'outcome'>, words: Words = ENGLISH): string | null {
  if (!step.planned) return null;
  const element = targetElement(step);
  const label = step.outcome?.target?.label;
  const target = element ? elementName(element) : label === undefined ? undefined : (nameInLabel(label) ?? label);
  return actionPhrase(step.planned.tool, step.planned.args, target, 'do', words);
}
