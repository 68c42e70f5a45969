import type { ToolCall } from '../../shared/action';
import { elementLabel, type Scene, type SceneElement } from '../../shared/scene';
import type { ConfirmationMode } from '../../shared/settings-catalog';
import type { GuardFinding, PersonRequest } from '../../shared/task';
import { ACTION_TOOLS } from '../tools/registry';
import { elementAt } from '../tools/scene-targets';
import type { CallEffects, ToolCatalog } from '../tools/tool';
import { isAllowedApp } from '../tools/app-resolver';
import { say, type Said, type SaidCode, type Saying } from '../../shared/said';

/**
 * The sensitive-action policy: before an action runs, whether it needs the person's yes. Pure: it reads the call,
 * the effects its tool declares, the turn's Scene, the mode and the task's allowed apps, and nothing else.
 */

type ConfirmationTarget = Extract<PersonRequest, { kind: 'confirmation' }>['target'];

export type PolicyVerdict =
  | { decision: 'allow' }
  | {
      decision: 'confirm';
      finding: Extract<GuardFinding, 'sensitive-action' | 'every-action' | 'outside-allowed-apps'>;
      /** In English for the records, with their codes for a window in another language. */
      reasons: string[];
      reasonsSaid: Said[];
      target: ConfirmationTarget;
    };

const confirm = (finding: Extract<PolicyVerdict, { decision: 'confirm' }>['finding'], sayings: Saying[], target: ConfirmationTarget): PolicyVerdict => ({
  decision: 'confirm',
  finding,
  reasons: sayings.map((saying) => saying.text),
  reasonsSaid: sayings.map((saying) => saying.said),
  target,
});

export interface PolicyInput {
  call: ToolCall;
  scene: Scene | null;
  mode: ConfirmationMode;
  /** Packages the task may act in; null: any. */
  allowedApps: readonly string[] | null;
  /** Where the call's tool is declared (default: the registry). */
  tools?: ToolCatalog;
}

/**
 * Words that mark an irreversible or costly action, in English and Chinese. English ones match whole words of a
 * label (a resource id's `btn_send` or `sendButton` counts; "Sender" does not).
 */
const SENSITIVE_ENGLISH = [
  'send', 'pay', 'payment', 'buy', 'purchase', 'order', 'checkout', 'subscribe', 'delete', 'remove', 'uninstall',
  'reset', 'erase', 'wipe', 'transfer', 'call', 'dial',
];
const SENSITIVE_CHINESE = ['发送', '支付', '付款', '购买', '买入', '下单', '订购', '结账', '删除', '移除', '卸载', '重置', '清除', '抹掉', '转账', '汇款', '呼叫', '拨打', '拨号'];
const ENGLISH_WORD = new RegExp(`\\b(${SENSITIVE_ENGLISH.join('|')})\\b`, 'i');

/** Apps every task may pass through: the home screen, the system UI and permission prompts. */
const ALWAYS_IN_SCOPE = /^(android|com\.android\.systemui|com\.android\.permissioncontroller|com\.google\.android\.permissioncontroller|com\.android\.packageinstaller)$|launcher/i;

/** Whether a task limited to `allowedApps` (null: any) may act in the app `pkg` (the home screen and system UI always). */
export function inTaskScope(pkg: string, allowedApps: readonly string[] | null): boolean {
  return !allowedApps || isAllowedApp(pkg, allowedApps) || ALWAYS_IN_SCOPE.test(pkg);
}

/**
 * The app an action led into outside the task's scope, from a screen in scope (e.g. a tap on a launcher icon):
 * the Scenes before and after it tell. Null when nothing left the scope.
 */
export function appLeftTo(before: Scene | null, after: Scene | null, allowedApps: readonly string[] | null): string | null {
  if (!allowedApps || !before || !after) return null;
  const from = before.screen.package;
  const to = after.screen.package;
  return to && to !== from && inTaskScope(from, allowedApps) && !inTaskScope(to, allowedApps) ? to : null;
}

/** `btn_sendMessage` -> `btn send Message`: a resource id read as words. */
function asWords(label: string): string {
  return label.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.:/]+/g, ' ');
}

/**
 * Whether a piece of a label reads as a command (a button's few words) rather than content: a message preview or
 * a note's first line that merely mentions "send" is not a Send button.
 */
function commandLike(part: string): boolean {
  const words = part.trim().split(/\s+/).length;
  return /[\u4e00-\u9fff]/.test(part) ? part.trim().length <= 10 : words <= 4;
}

/** The sensitive word a label carries, if any; a merged row's parts (" | ") are read one by one. */
export function sensitiveWordIn(label: string): string | null {
  for (const part of label.split(' | ').filter(commandLike)) {
    const english = ENGLISH_WORD.exec(asWords(part));
    if (english) return english[1]!.toLowerCase();
    const chinese = SENSITIVE_CHINESE.find((word) => part.includes(word));
    if (chinese) return chinese;
  }
  return null;
}

/** The element an action would touch: by id, under its point, or (typing without a field) the focused field. */
function targetOf(call: ToolCall, effects: CallEffects, scene: Scene | null): SceneElement | undefined {
  if (!scene || effects.target === 'phone' || effects.target === 'nothing') return undefined;
  const { element_id: id, x, y } = call.args;
  if (typeof id === 'string') return scene.elements.find((element) => element.id === id);
  if (typeof x === 'number' && typeof y === 'number') return elementAt(scene, { x, y });
  if (effects.target === 'text-field') return scene.elements.find((element) => element.focused && element.editable);
  return undefined;
}

const CARD_NUMBER = /(?:\d[ -]?){13,19}/;

/** A button that sends what is typed (Enter in a chat sends too). */
function sendButtonOn(scene: Scene | null): SceneElement | undefined {
  return scene?.elements.find((element) => [element.text, element.desc, element.resourceId].some((label) => label && /^(send|发送)$/.test(sensitiveWordIn(label) ?? '')));
}

/** How a reason names what a touch does to its element ("taps"), in the reader's language. */
const VERB_CODES: Partial<Record<string, SaidCode>> = { tap: 'policy.verb.tap', long_press: 'policy.verb.long_press', swipe: 'policy.verb.swipe' };

function sensitiveReasons(call: ToolCall, effects: CallEffects, element: SceneElement | undefined, scene: Scene | null): Saying[] {
  const reasons: Saying[] = [];
  if (effects.alwaysSensitive) reasons.push(say('policy.alwaysSensitive', { tool: call.name }));
  if (element && effects.target === 'element') {
    const labels = [element.text, element.desc, element.resourceId, element.unlabeled].filter((label): label is string => !!label);
    const word = labels.map(sensitiveWordIn).find((found) => found !== null);
    if (word) {
      const verbCode = VERB_CODES[call.name];
      reasons.push(
        verbCode
          ? say('policy.sensitiveElement', { verbCode, element: elementLabel(element), word })
          : say('policy.sensitiveElementTool', { tool: call.name, element: elementLabel(element), word }),
      );
    }
  }
  if (effects.target === 'text-field' && element?.password) reasons.push(say('policy.passwordField', { element: elementLabel(element) }));
  if (effects.typedText !== null && CARD_NUMBER.test(effects.typedText)) reasons.push(say('policy.cardNumber'));
  const send = effects.pressesEnter ? sendButtonOn(scene) : undefined;
  if (send) reasons.push(say('policy.enterMaySend', { element: elementLabel(send) }));
  return reasons;
}

export function decideAction(input: PolicyInput): PolicyVerdict {
  const { call, scene, mode, allowedApps } = input;
  if (mode === 'off') return { decision: 'allow' };
  const effects = (input.tools ?? ACTION_TOOLS).get(call.name)?.effectsOf(call.args);
  // Unknown tools, bad arguments and calls that only look or wait reach nothing on the phone; the Executor reports bad calls.
  if (!effects || effects.target === 'nothing') return { decision: 'allow' };
  const element = targetOf(call, effects, scene);
  const target: ConfirmationTarget = element ? { elementId: element.id, label: elementLabel(element), bounds: element.bounds } : null;
  if (mode === 'every') return confirm('every-action', [say('policy.stepMode')], target);
  const foreground = scene?.screen.package;
  // A call that opens an app is held to the allow-list by the app it opens (the Executor refuses others before
  // anything opens); any other call acting inside an app outside the list is asked about.
  if (foreground && !effects.opensApp && !inTaskScope(foreground, allowedApps)) {
    return confirm('outside-allowed-apps', [say('policy.outsideAllowedApps', { app: foreground })], target);
  }
  const reasons = sensitiveReasons(call, effects, element, scene);
  return reasons.length ? confirm('sensitive-action', reasons, target) : { decision: 'allow' };
}
