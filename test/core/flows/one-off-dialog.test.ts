// Which recorded taps answered a one-off dialog, judged from the screen they were recorded on: real permission dialogs
// (../shared/real-dumps), an app's tip and rate dialogs in English and Chinese, and dialogs that are not one-off.
import { describe, expect, it } from 'vitest';
import { readRealDump, realDumps } from '../../support/real-dumps';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { oneOffDialogOf } from '../../../src/core/flows/one-off-dialog';
import type { Scene, SceneElement } from '../../../src/shared/scene';

const realScene = (name: string): Scene => {
  const dump = realDumps(['set-b']).find((candidate) => candidate.name === name)!;
  const hierarchy = parseUiHierarchy(readRealDump(dump));
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), { tokenBudget: Infinity });
};
const byText = (scene: Scene, text: string): SceneElement => scene.elements.find((element) => element.text === text)!;

/** An app's own dialog over its screen (window `dialog`), with these buttons. */
function appDialog(title: string, buttons: string[]): Scene {
  return {
    screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example.shop', keyboardShown: false, dialog: title },
    elements: [
      { id: 'e1', type: 'TextView', text: 'Today’s offers', bounds: [0, 200, 1080, 300], covered: true },
      { id: 'e2', type: 'TextView', text: title, bounds: [100, 1000, 980, 1100], window: 'dialog' },
      ...buttons.map((text, index): SceneElement => ({ id: `e${index + 3}`, type: 'Button', text, bounds: [100 + index * 300, 1200, 380 + index * 300, 1300], clickable: true, window: 'dialog' })),
    ],
  };
}

describe('one-off dialogs', () => {
  it('Scenario: A tap that answered a permission or a tip is a one-off dialog, judged from the recorded screen in English and Chinese', () => {
    // Android 14's permission controller in front: each answer, a yes or a no.
    const modern = realScene('16-permission-dialog');
    for (const answer of ['While using the app', 'Only this time', 'Don’t allow']) expect(oneOffDialogOf(modern, byText(modern, answer)), answer).toBe('permission');
    // Its location accuracy choice answers nothing by itself.
    expect(oneOffDialogOf(modern, byText(modern, 'Precise'))).toBeNull();
    // The package installer's dialog before Android 10, in capitals.
    const old = realScene('22-perm-dialog-old-land');
    expect(oneOffDialogOf(old, byText(old, 'ALLOW'))).toBe('permission');
    expect(oneOffDialogOf(old, byText(old, 'DENY'))).toBe('permission');
    // A tip and a rate request, in either language.
    for (const [title, buttons, tapped] of [
      ['Swipe left to archive', ['Got it'], 'Got it'],
      ['新功能：左滑归档', ['知道了'], '知道了'],
      ['Enjoying the app?', ['Rate now', 'Not now'], 'Not now'],
      ['喜欢这个应用吗？', ['去评分', '以后再说'], '以后再说'],
      ['What’s new in 5.2', ['OK'], 'OK'],
    ] as const) {
      const scene = appDialog(title, [...buttons]);
      expect(oneOffDialogOf(scene, byText(scene, tapped)), `${title}: ${tapped}`).toBe('acknowledgement');
    }
    // A permission dialog in Chinese, as the demo phone's buttons are named by the permission controller's ids.
    const chinese: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.contacts', keyboardShown: false, dialog: '要允许“通讯录”访问您的通讯录吗？' },
      elements: [
        { id: 'e1', type: 'Button', text: '不允许', resourceId: 'permission_deny_button', bounds: [400, 1200, 700, 1300], clickable: true, window: 'dialog' },
        { id: 'e2', type: 'Button', text: '允许', resourceId: 'permission_allow_button', bounds: [700, 1200, 900, 1300], clickable: true, window: 'dialog' },
      ],
    };
    expect(oneOffDialogOf(chinese, chinese.elements[1]!)).toBe('permission');
  });

  it('Scenario: A dialog that confirms an action, an app-not-responding dialog or a page button is no one-off dialog', () => {
    for (const [title, buttons, tapped] of [
      ['Delete this contact?', ['Cancel', 'Delete'], 'Delete'],
      ['Delete all notes?', ['Cancel', 'OK'], 'OK'],
      ['删除所有笔记？', ['取消', '确定'], '确定'],
      ['Send 3 photos?', ['Cancel', 'Continue'], 'Continue'],
    ] as const) {
      const scene = appDialog(title, [...buttons]);
      expect(oneOffDialogOf(scene, byText(scene, tapped)), `${title}: ${tapped}`).toBeNull();
    }
    const anr = realScene('23-anr-dialog');
    expect(oneOffDialogOf(anr, byText(anr, 'Close app'))).toBeNull();
    // "Allow" on an app's own page (no dialog in front) is the app's button, not a permission's answer.
    const page: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.contacts', keyboardShown: false },
      elements: [{ id: 'e1', type: 'Button', text: 'Allow', resourceId: 'allow_access', bounds: [300, 1200, 780, 1300], clickable: true }],
    };
    expect(oneOffDialogOf(page, page.elements[0]!)).toBeNull();
    // A covered element (under the dialog) never answered it.
    const covered = appDialog('Swipe left to archive', ['Got it']);
    expect(oneOffDialogOf(covered, { ...byText(covered, 'Got it'), covered: true, clickable: undefined })).toBeNull();
  });
});
