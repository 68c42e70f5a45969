import { isSwipeDirection, type StepOutcome } from './action';
import { ENGLISH, type Words } from './i18n/translate';
import { elementName, nameInLabel, type SceneElement } from './scene';
import type { StepRecord } from './task';
import { toolWords, type ToolPhrase } from './tool-vocabulary';
import { wordCode } from './said';

/**
 * Actions in a person's words ("Tap 'Network & internet'", "Opened Settings"), one wording for the timeline, the
 * guards' messages, the confirmation card, the HTML report and the terminal. The tool names and arguments stay
 * available in a step's details; these lines are for reading. English (catalog area `common`, `action.*`) unless
 * given another language's `words`: the guards' messages, which the model hears, are always English.
 */

/** The outcome of an action the person said no to (what the model hears and the record keeps: never translated). */
export const DENIED = wordCode('step.denied');

/** Whether the person said no to this step's action: neither a failure of the agent nor an action taken. */
export const isDenied = (outcome: Pick<StepOutcome, 'ok' | 'error'>): boolean => !outcome.ok && outcome.error === DENIED;

type Mood = 'do' | 'done';

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
 * name as a person reads it (see `elementName`), or a flow's description of it already in the reader's words
 * (`described`, which quotes the names in it). The tool's verb and the form of its words come from its entry in
 * the tool vocabulary; a tool this build does not know is shown with its arguments.
 */
export function actionPhrase(tool: string, args: Record<string, unknown>, target?: string | { described: string } | null, mood: Mood = 'do', words: Words = ENGLISH): string {
  const known = toolWords(tool);
  if (!known) return `${tool} ${clip(JSON.stringify(args), 120)}`;
  const verb = words.t(`common:action.verb.${tool}.${mood}`);
  const on = typeof target === 'object' && target ? words.t('common:action.described', { name: clip(target.described, 60) }) : target ? words.t('common:action.target', { name: clip(target, 60) }) : undefined;
  return PHRASES[known.phrase]({ verb, args, on, mood, t: words.t });
}

interface PhraseParts {
  verb: string;
  args: Record<string, unknown>;
  /** The target element's name, quoted in the language's way. */
  on: string | undefined;
  mood: Mood;
  t: Words['t'];
}

const joined = (...parts: Array<string | false | undefined>) => parts.filter(Boolean).join(' ');

/** Each form of words (declared per tool in the vocabulary) from a call's arguments. */
const PHRASES: Record<ToolPhrase, (parts: PhraseParts) => string> = {
  point: ({ verb, args, on, t }) => {
    const at = point(args.x, args.y);
    return joined(verb, on ?? (at && t('common:action.at', { point: at })));
  },
  swipe: ({ verb, args, on, t }) => {
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
    return joined(verb, way, on && t('common:action.on', { target: on }));
  },
  text: ({ verb, args, on, mood, t }) =>
    joined(verb, t('common:action.text', { text: clip(text(args.text) ?? '', 60) }), on && t('common:action.into', { target: on }), args.submit === true && t(`common:action.pressEnter.${mood}`)),
  key: ({ verb, args, t }) => `${verb} ${keyWords(text(args.key) ?? t('common:action.aKey'))}`,
  app: ({ verb, args, t }) => `${verb} ${text(args.app) ?? text(args.package) ?? t('common:action.anApp')}`,
  url: ({ verb, args }) => joined(verb, text(args.url) && clip(text(args.url)!, 120)),
  // Rounded to a tenth: a wait worked out by a model or a flow can carry float noise (0.21000000000000002).
  seconds: ({ verb, args, t }) => (typeof args.seconds === 'number' ? t('common:action.seconds', { verb, seconds: Math.round(args.seconds * 10) / 10 }) : verb),
  finish: ({ verb, args, t }) => t(args.success === false ? 'common:action.unreachable' : 'common:action.reached', { verb }),
  question: ({ verb, args, t }) => t('common:action.ask', { verb, question: t('common:action.text', { text: clip(text(args.question) ?? '', 120) }) }),
  reason: ({ verb, args, t }) => (text(args.reason) ? t('common:action.because', { verb, reason: clip(text(args.reason)!, 120) }) : verb),
  verb: ({ verb }) => verb,
};

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
