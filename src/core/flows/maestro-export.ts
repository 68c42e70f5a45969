import { stringify } from 'yaml';
import type { Flow, FlowStep, Locator } from '../../shared/flow';
import { say, type Said, type Saying } from '../../shared/said';
import { resolveVariables } from './flow-variables';

/**
 * A flow as a Maestro file (`amc flow export ID --format maestro`), written so that it runs back here as it is
 * (maestro-file.ts reads it): each step as the Maestro command that means it. A step Maestro has no words for (a
 * sub-goal for the model, a check of a switch's state, a row's locator) is named instead of written wrongly.
 */

export class NotExpressibleInMaestro extends Error {
  override name = 'NotExpressibleInMaestro';
  /** The message's code, for a reader in another language. */
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

const MAESTRO_KEYS: Record<string, string> = { enter: 'Enter', home: 'Home', delete: 'Backspace', tab: 'Tab', escape: 'Escape', volume_up: 'Volume Up', volume_down: 'Volume Down', power: 'Power' };

/** Maestro reads a selector's text as a regular expression: a sign in a label ("*", "(2)") is escaped to mean itself. */
const literal = (words: string) => words.replace(/[\\^$*+?()[\]{}|]/g, '\\$&');

/**
 * A Maestro selector for the element `locator` names (`{ text, id }`), at a flow's `step` (from 1; none: an element on
 * its own); throws NotExpressibleInMaestro where its words cannot name it.
 */
export function maestroSelector(locator: Locator, optional: boolean | undefined, step?: number): Record<string, unknown> {
  const unsaid = (atStep: 'flowExport.maestroByRow' | 'flowExport.maestroNoTextOrId', alone: 'flowExport.maestroElementByRow' | 'flowExport.maestroElementNoTextOrId') =>
    new NotExpressibleInMaestro(step === undefined ? say(alone) : say(atStep, { step }));
  if (locator.row !== undefined || locator.distinguishedBy !== undefined) throw unsaid('flowExport.maestroByRow', 'flowExport.maestroElementByRow');
  const text = locator.text ?? locator.label ?? locator.desc ?? locator.hint;
  if (text === undefined && locator.resourceId === undefined) throw unsaid('flowExport.maestroNoTextOrId', 'flowExport.maestroElementNoTextOrId');
  return { ...(text !== undefined && { text: literal(text) }), ...(locator.resourceId !== undefined && { id: literal(locator.resourceId) }), ...(optional && { optional: true }) };
}

/** The Maestro commands of the flow's step number `at` (from 1). */
function commandsOf(step: FlowStep, at: number): unknown[] {
  if ('tool' in step) {
    const { tool, args, target } = step;
    // A `$${` is our flow's literal `${`; the selector's text is the words the element shows.
    const on = target ? maestroSelector(resolveVariables(target, {}), step.optional, at) : undefined;
    switch (tool) {
      case 'launch_app':
        return [{ launchApp: { appId: step.expect?.app ?? args.app, stopApp: false } }];
      case 'tap':
      case 'long_press':
        if (!on) throw new NotExpressibleInMaestro(say('flowExport.maestroPointTap', { step: at }));
        return [{ [tool === 'tap' ? 'tapOn' : 'longPressOn']: on }];
      case 'type_text':
        return [...(on ? [{ tapOn: on }] : []), { inputText: String(args.text ?? '') }];
      case 'press_key':
        return args.key === 'back' ? ['back'] : [{ pressKey: MAESTRO_KEYS[String(args.key)] ?? String(args.key) }];
      case 'swipe':
        if (typeof args.direction !== 'string') throw new NotExpressibleInMaestro(say('flowExport.maestroPointSwipe', { step: at }));
        return [{ swipe: { direction: args.direction.toUpperCase() } }];
      case 'open_url':
        return [{ openLink: String(args.url) }];
      case 'wait':
        return [{ waitForAnimationToEnd: { timeout: Math.round(Number(args.seconds) * 1000) } }];
      case 'stop_app':
        return [{ stopApp: String(args.app) }];
      case 'clear_app':
        return [{ clearState: String(args.app) }];
      default:
        throw new NotExpressibleInMaestro(say('flowExport.maestroNoCommand', { step: at, tool }));
    }
  }
  if ('assert' in step) {
    const { visible, absent, ...rest } = step.assert;
    if (Object.keys(rest).length) throw new NotExpressibleInMaestro(say('flowExport.maestroTextsOnly', { step: at, checks: Object.keys(rest).map((check) => `\`${check}\``).join(', ') }));
    return [...(visible !== undefined ? [{ assertVisible: visible }] : []), ...(absent !== undefined ? [{ assertNotVisible: absent }] : [])];
  }
  if ('ask_ai' in step) {
    const { question, kind, into } = step.ask_ai;
    return [kind === 'yes-no' ? { assertWithAI: { assertion: question } } : { extractTextWithAI: { query: question, outputVariable: into ?? 'aiOutput' } }];
  }
  if ('wait_until' in step) {
    const { visible, not_visible: notVisible, timeout } = step.wait_until;
    return [{ extendedWaitUntil: { ...(visible !== undefined ? { visible } : { notVisible }), timeout: timeout ?? 17_000 } }];
  }
  if ('wait_for_settle' in step) return ['waitForAnimationToEnd'];
  throw new NotExpressibleInMaestro(say('ai' in step ? 'flowExport.maestroSubGoal' : 'flowExport.maestroStepKind', { step: at }));
}

export function flowToMaestro(flow: Flow): string {
  const firstLaunch = flow.steps.find((step) => 'tool' in step && step.tool === 'launch_app');
  // The app the flow opens (a recorded flow's `app` is where it started, often the launcher), else where it started.
  const appId = (firstLaunch && 'tool' in firstLaunch ? (firstLaunch.expect?.app ?? String(firstLaunch.args.app)) : undefined) ?? flow.app;
  if (!appId) throw new NotExpressibleInMaestro(say('flowExport.maestroNoApp'));
  const commands = flow.steps.flatMap((step, index) => commandsOf(step, index + 1));
  // The flow's variables as Maestro's env, which `-e NAME=VALUE` overrides as `--var` does ours.
  const env = Object.keys(flow.vars).length ? { env: flow.vars } : {};
  return `${stringify({ appId, name: flow.goal, ...env }, { lineWidth: 0 })}---\n${stringify(commands, { lineWidth: 0 })}`;
}
