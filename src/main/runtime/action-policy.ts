import type { ToolCall } from '../../shared/action';
import { elementLabel, type Scene, type SceneElement } from '../../shared/scene';
import type { ConfirmationMode } from '../../shared/settings-catalog';
import type { GuardFinding, PersonRequest } from '../../shared/task';
import { ACTION_TOOLS } from '../tools/registry';
import { elementAt } from '../tools/scene-targets';
import { isAllowedApp } from '../tools/app-resolver';

/**
 * The sensitive-action policy: before an action runs, whether it needs the person's yes. Pure: it reads the call,
 * the turn's Scene, the mode and the task's allowed apps, and nothing else.
 */

type ConfirmationTarget = Extract<PersonRequest, { kind: 'confirmation' }>['target'];

export type PolicyVerdict =
  | { decision: 'allow' }
  | { decision: 'confirm'; finding: Extract<GuardFinding, 'sensitive-action' | 'every-action' | 'outside-allowed-apps'>; reasons: string[]; target: ConfirmationTarget };

export interface PolicyInput {
  call: ToolCall;
  scene: Scene | null;
  mode: ConfirmationMode;
  /** Packages the task may act in; null: any. */
  allowedApps: readonly string[] | null;
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
function targetOf(call: ToolCall, scene: Scene | null): SceneElement | undefined {
  if (!scene) return undefined;
  const { element_id: id, x, y } = call.args;
  if (typeof id === 'string') return scene.elements.find((element) => element.id === id);
  if (typeof x === 'number' && typeof y === 'number') return elementAt(scene, { x, y });
  if (call.name === 'type_text') return scene.elements.find((element) => element.focused && element.editable);
  return undefined;
}

const VERBS: Record<string, string> = { tap: 'taps', long_press: 'long-presses', swipe: 'swipes on' };
const CARD_NUMBER = /(?:\d[ -]?){13,19}/;

/** A button that sends what is typed (Enter in a chat sends too). */
function sendButtonOn(scene: Scene | null): SceneElement | undefined {
  return scene?.elements.find((element) => [element.text, element.desc, element.resourceId].some((label) => label && /^(send|发送)$/.test(sensitiveWordIn(label) ?? '')));
}

function sensitiveReasons(call: ToolCall, element: SceneElement | undefined, scene: Scene | null): string[] {
  const reasons: string[] = [];
  const tool = ACTION_TOOLS.get(call.name);
  if (tool?.sensitiveByDefault) reasons.push(`${call.name} always needs a yes`);
  if (element && tool?.actsOnPhone && call.name !== 'type_text') {
    const labels = [element.text, element.desc, element.resourceId, element.unlabeled].filter((label): label is string => !!label);
    const word = labels.map(sensitiveWordIn).find((found) => found !== null);
    if (word) reasons.push(`it ${VERBS[call.name] ?? `uses ${call.name} on`} ${elementLabel(element)} (${word})`);
  }
  if (call.name === 'type_text') {
    if (element?.password) reasons.push(`it types into a password field (${elementLabel(element)})`);
    if (typeof call.args.text === 'string' && CARD_NUMBER.test(call.args.text)) reasons.push('it types what looks like a card number');
  }
  const pressesEnter = (call.name === 'type_text' && call.args.submit === true) || (call.name === 'press_key' && call.args.key === 'enter');
  const send = pressesEnter ? sendButtonOn(scene) : undefined;
  if (send) reasons.push(`it presses Enter, which may send, next to ${elementLabel(send)}`);
  return reasons;
}

export function decideAction(input: PolicyInput): PolicyVerdict {
  const { call, scene, mode, allowedApps } = input;
  if (mode === 'off') return { decision: 'allow' };
  const tool = ACTION_TOOLS.get(call.name);
  // Unknown tools and calls that only look or wait reach nothing on the phone; the Executor reports bad calls.
  if (!tool?.actsOnPhone) return { decision: 'allow' };
  const element = targetOf(call, scene);
  const target: ConfirmationTarget = element ? { elementId: element.id, label: elementLabel(element), bounds: element.bounds } : null;
  if (mode === 'every') return { decision: 'confirm', finding: 'every-action', reasons: ['step mode: every action waits for your yes'], target };
  const foreground = scene?.screen.package;
  // launch_app outside the allow-list is refused by the Executor itself; acting inside another app is asked about.
  if (allowedApps && foreground && call.name !== 'launch_app' && !isAllowedApp(foreground, allowedApps) && !ALWAYS_IN_SCOPE.test(foreground)) {
    return { decision: 'confirm', finding: 'outside-allowed-apps', reasons: [`it acts in ${foreground}, which is not among this task's allowed apps`], target };
  }
  const reasons = sensitiveReasons(call, element, scene);
  return reasons.length ? { decision: 'confirm', finding: 'sensitive-action', reasons, target } : { decision: 'allow' };
}
