import { stringify } from 'yaml';
import type { Flow, FlowStep, Locator } from '../../shared/flow';
import { resolveVariables } from './flow-variables';

/**
 * A flow as a Maestro file (`amc flow export ID --format maestro`), written so that it runs back here as it is
 * (maestro-file.ts reads it): each step as the Maestro command that means it. A step Maestro has no words for (a
 * sub-goal for the model, a check of a switch's state, a row's locator) is named instead of written wrongly.
 */

export class NotExpressibleInMaestro extends Error {
  override name = 'NotExpressibleInMaestro';
}

const MAESTRO_KEYS: Record<string, string> = { enter: 'Enter', home: 'Home', delete: 'Backspace', tab: 'Tab', escape: 'Escape', volume_up: 'Volume Up', volume_down: 'Volume Down', power: 'Power' };

/** Maestro reads a selector's text as a regular expression: a sign in a label ("*", "(2)") is escaped to mean itself. */
const literal = (words: string) => words.replace(/[\\^$*+?()[\]{}|]/g, '\\$&');

/** A Maestro selector for the element `locator` names (`{ text, id }`); throws NotExpressibleInMaestro where its words cannot name it. */
export function maestroSelector(locator: Locator, optional: boolean | undefined, where: string): Record<string, unknown> {
  if (locator.row !== undefined || locator.distinguishedBy !== undefined) throw new NotExpressibleInMaestro(`${where}: its element is named by the row it sits in or by its neighbours, which a Maestro selector cannot say`);
  const text = locator.text ?? locator.label ?? locator.desc ?? locator.hint;
  if (text === undefined && locator.resourceId === undefined) throw new NotExpressibleInMaestro(`${where}: its element has no text or id a Maestro selector can name`);
  return { ...(text !== undefined && { text: literal(text) }), ...(locator.resourceId !== undefined && { id: literal(locator.resourceId) }), ...(optional && { optional: true }) };
}

function commandsOf(step: FlowStep, where: string): unknown[] {
  if ('tool' in step) {
    const { tool, args, target } = step;
    // A `$${` is our flow's literal `${`; the selector's text is the words the element shows.
    const on = target ? maestroSelector(resolveVariables(target, {}), step.optional, where) : undefined;
    switch (tool) {
      case 'launch_app':
        return [{ launchApp: { appId: step.expect?.app ?? args.app, stopApp: false } }];
      case 'tap':
      case 'long_press':
        if (!on) throw new NotExpressibleInMaestro(`${where}: a tap at a point is not written as a Maestro command here`);
        return [{ [tool === 'tap' ? 'tapOn' : 'longPressOn']: on }];
      case 'type_text':
        return [...(on ? [{ tapOn: on }] : []), { inputText: String(args.text ?? '') }];
      case 'press_key':
        return args.key === 'back' ? ['back'] : [{ pressKey: MAESTRO_KEYS[String(args.key)] ?? String(args.key) }];
      case 'swipe':
        if (typeof args.direction !== 'string') throw new NotExpressibleInMaestro(`${where}: a swipe between points is not written as a Maestro command here`);
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
        throw new NotExpressibleInMaestro(`${where}: \`${tool}\` has no Maestro command`);
    }
  }
  if ('assert' in step) {
    const { visible, absent, ...rest } = step.assert;
    if (Object.keys(rest).length) throw new NotExpressibleInMaestro(`${where}: Maestro checks texts on the screen, not ${Object.keys(rest).join(' or ')}`);
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
  throw new NotExpressibleInMaestro(`${where}: ${'ai' in step ? 'a sub-goal for the model' : 'this kind of step'} has no Maestro command`);
}

export function flowToMaestro(flow: Flow): string {
  const firstLaunch = flow.steps.find((step) => 'tool' in step && step.tool === 'launch_app');
  // The app the flow opens (a recorded flow's `app` is where it started, often the launcher), else where it started.
  const appId = (firstLaunch && 'tool' in firstLaunch ? (firstLaunch.expect?.app ?? String(firstLaunch.args.app)) : undefined) ?? flow.app;
  if (!appId) throw new NotExpressibleInMaestro('the flow names no app, and a Maestro flow starts with its appId');
  const commands = flow.steps.flatMap((step, index) => commandsOf(step, `step ${index + 1}`));
  // The flow's variables as Maestro's env, which `-e NAME=VALUE` overrides as `--var` does ours.
  const env = Object.keys(flow.vars).length ? { env: flow.vars } : {};
  return `${stringify({ appId, name: flow.goal, ...env }, { lineWidth: 0 })}---\n${stringify(commands, { lineWidth: 0 })}`;
}
