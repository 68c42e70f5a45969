import type { Scene, SceneElement } from '../../shared/scene';
import { labelParts } from '../../shared/scene';

/**
 * One-off dialogs: a question the phone or an app asks once (a runtime permission, a first-run tip, a rate-us or
 * what's-new dialog) and never again once it is answered. A recorded tap that answered one is optional in a replay:
 * where the question was answered before, the dialog is not there and the flow goes on without it. Judged only from
 * facts of the screen the tap was recorded on (the dialog's window, the permission controller, the button's words),
 * never at replay time. Pure.
 */

/** The packages whose windows ask for runtime permissions (Android 10+, and the package installer before it). */
const PERMISSION_PACKAGES: ReadonlySet<string> = new Set([
  'com.android.permissioncontroller',
  'com.google.android.permissioncontroller',
  'com.android.packageinstaller',
  'com.google.android.packageinstaller',
]);

/** The permission controller's own buttons (their resource ids, which its every version and language share). */
const PERMISSION_BUTTON_ID = /^(?:com\.(?:google\.)?android\.(?:permissioncontroller|packageinstaller):id\/)?permission_(?:allow|deny)\w*_button$/;

/** The words of a permission dialog's answers, in English and Chinese (a person answers yes or no: both are one-off). */
const PERMISSION_ANSWERS = [
  'allow',
  'while using the app',
  'only this time',
  'allow all the time',
  'allow only while using the app',
  "don't allow",
  'don’t allow',
  'deny',
  'deny & don’t ask again',
  "deny & don't ask again",
  '允许',
  '始终允许',
  '仅在使用该应用时允许',
  '仅在使用中允许',
  '使用应用时允许',
  '仅限这一次',
  '本次运行允许',
  '不允许',
  '拒绝',
];

/**
 * Words that only take note of an app's one-off dialog (a tip, a changelog): one-off only as the dialog's one button,
 * since beside a Cancel they confirm an action instead.
 */
const ACKNOWLEDGEMENTS = ['ok', 'okay', 'got it', 'continue', '好', '好的', '确定', '知道了', '我知道了', '继续'];
/** Words that put an app's one-off request off (rate us, sign in, turn on notifications), one-off whatever else it offers. */
const PUTTING_OFF = ['not now', 'later', 'maybe later', 'remind me later', 'no thanks', 'no, thanks', 'skip', 'dismiss', 'close', '以后再说', '稍后', '稍后再说', '暂不', '跳过', '关闭', '不用了'];

const spoken = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
const wordsOf = (element: SceneElement): string | undefined => {
  const own = element.text === undefined || element.editable ? (element.desc ?? undefined) : labelParts(element.text)[0];
  return own === undefined ? undefined : spoken(own);
};

/** What kind of one-off dialog the recorded tap answered, or null when it was not one. */
export type OneOffDialog = 'permission' | 'acknowledgement';

/**
 * Whether tapping `element` on `scene` answered a one-off dialog: a permission question (the permission controller in
 * front, or its answer buttons, with the words of an answer), or an app's dialog (a dialog window in front) closed by
 * a word that only takes note of it or puts it off. A dialog that asks to confirm an action ("Delete this contact?",
 * Cancel / OK) is not.
 */
export function oneOffDialogOf(scene: Scene, element: SceneElement): OneOffDialog | null {
  const words = wordsOf(element);
  if (words === undefined || element.covered) return null;
  const inDialog = element.window === 'dialog' || element.window === 'popup';
  const permissionWindow = PERMISSION_PACKAGES.has(scene.screen.package) || (element.resourceId !== undefined && PERMISSION_BUTTON_ID.test(element.resourceId));
  if (permissionWindow && (inDialog || PERMISSION_PACKAGES.has(scene.screen.package)) && PERMISSION_ANSWERS.includes(words)) return 'permission';
  if (!inDialog || scene.screen.dialog === undefined) return null;
  if (PUTTING_OFF.includes(words)) return 'acknowledgement';
  const buttons = scene.elements.filter((other) => other.window === element.window && other.clickable && !other.covered);
  return ACKNOWLEDGEMENTS.includes(words) && buttons.length === 1 ? 'acknowledgement' : null;
}
