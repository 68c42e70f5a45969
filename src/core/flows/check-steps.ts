import type { ActionStep, AskAi, Assertion, FlowStepMark, WaitUntil } from '../../shared/flow';
import { labelParts, sceneFingerprint } from '../../shared/scene';
import type { TokenUsage } from '@amc/provider-clients';
import type { PlanContext } from '../runtime/planner';
import type { FlowChecks } from './flow-checks-port';
import { FlowStepFailed } from './flow-step-failure';
import { checkedOn, DIRECTION_CODES, sayAbout, verbatim, waited } from './flow-step-said';
import { resolveLocator } from './locator';
import { locatorSaidValue } from './locator-said';
import { LOOKUP_TIMEOUT_MS, OPTIONAL_LOOKUP_TIMEOUT_MS, type FlowScreenshots } from './replay-options';
import type { ScreenWatch } from './screen-watch';
import { say, type Saying } from '../../shared/said';

/**
 * The flow steps a replay carries out on the screen without an action of their own (a check, a wait, a copied text, a
 * screenshot, a question to the model), and a scroll's next swipe: each says how it went, or fails the step.
 */

/** One step under way: where it is, the screen it looks at, and how it says how it went. */
export interface StepRun {
  index: number;
  /** Inside a block: the block's own line says how it went (`reportTop` stays silent). */
  inBlock: boolean;
  screen: ScreenWatch;
  context: PlanContext;
  report(status: FlowStepMark['status'], detail: Saying): void;
}

const reportTop = (run: StepRun, status: FlowStepMark['status'], detail: Saying) => run.inBlock || run.report(status, detail);

/** A step's failure: its own line says what it missed, the run's reason names the step and what failed (`code`). */
function failStep(run: StepRun, code: 'flowRun.checkFailed' | 'flowRun.waitedInVain' | 'flowRun.nothingToCopy' | 'flowRun.noScreenshot', missing: Saying): never {
  run.report('failed', missing);
  throw new FlowStepFailed({ index: run.index, reason: sayAbout(code, {}, { reasonSaid: missing }) });
}

/** `assert`: the fact the check found (waiting for the screen up to `timeoutMs`), or the step fails. */
export async function assertStep(run: StepRun, checks: FlowChecks, assertion: Assertion, timeoutMs: number): Promise<Saying> {
  const result = await run.screen.waitFor<Saying>((scene) => checkedOn(checks.assert(scene, assertion)), timeoutMs, run.context);
  if ('missing' in result) failStep(run, 'flowRun.checkFailed', waited(result.missing, result.waitedMs));
  run.report('passed', result.found);
  return result.found;
}

/** `wait_until`: the screen shows (or stops showing) a text within the timeout, or the step fails. */
export async function waitUntilStep(run: StepRun, checks: FlowChecks, wait: WaitUntil, optional = false): Promise<void> {
  const assertion = wait.visible !== undefined ? { visible: wait.visible } : { absent: wait.not_visible! };
  const result = await run.screen.waitFor<Saying>((scene) => checkedOn(checks.assert(scene, assertion)), wait.timeout ?? (optional ? OPTIONAL_LOOKUP_TIMEOUT_MS : LOOKUP_TIMEOUT_MS), run.context);
  if ('missing' in result) failStep(run, 'flowRun.waitedInVain', waited(result.missing, result.waitedMs));
  run.report('passed', result.found);
}

/** `wait_for_settle`: looks again until the screen holds still (never fails). */
export async function settleStep(run: StepRun, timeoutMs: number = LOOKUP_TIMEOUT_MS): Promise<void> {
  const waitedMs = await run.screen.settle(timeoutMs, run.context);
  run.report('passed', waited(say('flowRun.settled'), waitedMs));
}

/** `copy_text`: the words of the one element the locator finds, kept in `vars` for later steps; else the step fails. */
export async function copyTextStep(run: StepRun, copy: { from: NonNullable<ActionStep['target']>; into: string }, timeoutMs: number, vars: Record<string, string>): Promise<void> {
  const result = await run.screen.waitFor<string>((scene) => {
    const found = resolveLocator(scene, copy.from);
    if (found.kind !== 'found') return { missing: { text: found.reason, said: found.said } };
    const { element } = found;
    const words = element.editable ? element.text : (element.text === undefined ? undefined : labelParts(element.text)[0]) ?? element.desc ?? element.hint;
    return words === undefined ? { missing: say('flowRun.noTextToCopy', { whatSaid: locatorSaidValue(copy.from) }) } : { found: words };
  }, timeoutMs, run.context);
  if ('missing' in result) failStep(run, 'flowRun.nothingToCopy', waited(result.missing, result.waitedMs));
  vars[copy.into] = result.found;
  reportTop(run, 'passed', verbatim(`${copy.into} = "${result.found}"`));
}

/** `screenshot`: the screen as it is now, saved as a file by the run (never kept in the task's history). */
export async function screenshotStep(run: StepRun, name: string, saver: FlowScreenshots | undefined): Promise<void> {
  const saved = saver ? await saver.save(name, run.context.signal).catch((error: unknown) => ({ problem: verbatim(error instanceof Error ? error.message : String(error)) })) : { problem: say('flowRun.noScreenshots') };
  if (typeof saved !== 'string') failStep(run, 'flowRun.noScreenshot', saved.problem);
  reportTop(run, 'passed', verbatim(saved));
}

/**
 * `ask_ai`: the model's answer on this screen; a yes-no question answered no fails the step, a value is kept in `vars`.
 * `spend` hears what the call cost; resolves to the fact a yes confirmed.
 */
export async function askAiStep(run: StepRun, checks: FlowChecks, ask: AskAi, vars: Record<string, string>, spend: (usage: TokenUsage | null) => void): Promise<Saying | null> {
  const answer = await checks.ask(run.screen.scene!, ask, run.context.signal);
  spend(answer.usage);
  // The model's answer took its time: the screen may have moved since it held still.
  run.screen.settled = false;
  if (answer.kind === 'yes-no') {
    run.report(answer.yes ? 'passed' : 'failed', say(answer.yes ? 'flowRun.answeredYes' : 'flowRun.answeredNo', { why: answer.why }));
    if (!answer.yes) throw new FlowStepFailed({ index: run.index, reason: say('flowRun.modelSaidNo', { question: ask.question, why: answer.why }) });
    return say('flowRun.askedYes', { question: ask.question });
  }
  run.report('passed', verbatim(ask.into ? `${ask.into} = "${answer.value}"` : `"${answer.value}"`));
  if (ask.into) vars[ask.into] = answer.value;
  return null;
}

/** A swipe that scrolls the content toward `direction`: the finger moves the other way. */
const SWIPE_FOR_SCROLL = { down: 'up', up: 'down', left: 'right', right: 'left' } as const;

/** A scroll_until_visible under way: when it gives up, and the screen its last swipe started from. */
export interface Scrolling {
  until: number;
  from: string;
}

/**
 * `scroll_until_visible`: done once the target is on screen; else one swipe this turn (the flow stays at the step),
 * until its timeout passes or a swipe leaves the screen as it was (the list ended): then why it failed. `scrolling`
 * is the scroll under way (null before the first swipe), changed in place.
 */
export function scrollStep(
  run: StepRun,
  scroll: { target: NonNullable<ActionStep['target']>; direction: 'up' | 'down' | 'left' | 'right'; timeout?: number },
  scrolling: { current: Scrolling | null },
): { swipe: { direction: string }; rationale: Saying } | 'next' | Saying {
  const scene = run.screen.scene!;
  const found = resolveLocator(scene, scroll.target);
  const whatSaid = locatorSaidValue(scroll.target);
  if (found.kind === 'found') {
    scrolling.current = null;
    reportTop(run, 'passed', say('flowRun.targetOnScreen', { whatSaid }));
    return 'next';
  }
  const print = sceneFingerprint(scene);
  const now = Date.now();
  if (scrolling.current && print === scrolling.current.from) {
    scrolling.current = null;
    return say('flowRun.scrollEnded', { whatSaid, directionCode: DIRECTION_CODES[scroll.direction] });
  }
  scrolling.current ??= { until: now + (scroll.timeout ?? LOOKUP_TIMEOUT_MS), from: print };
  if (now >= scrolling.current.until) {
    scrolling.current = null;
    return say('flowRun.scrollTimedOut', { whatSaid, directionCode: DIRECTION_CODES[scroll.direction], seconds: ((scroll.timeout ?? LOOKUP_TIMEOUT_MS) / 1000).toFixed(1) });
  }
  scrolling.current.from = print;
  return { swipe: { direction: SWIPE_FOR_SCROLL[scroll.direction] }, rationale: say('flowRun.scrollWhy', { directionCode: DIRECTION_CODES[scroll.direction], targetSaid: whatSaid, step: run.index + 1 }) };
}
