// Fixtures of our own (test/core/perception/fixtures) in the shapes real phones dump: a WebView page whose containers
// Chrome reports collapsed, a dialog over a list, a bottom sheet on a scrim, overlays that are not modal, and a game
// drawn without a UI tree. Each is read as the Observer reads a phone whose `dumpsys` says nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { hasNoUsableTree, labelParts, type Scene, type SceneElement } from '../../../src/shared/scene';
import { expectActionableNodesRepresented, expectLabelsKept } from '../../support/scene-coverage';

const hierarchyOf = (name: string) => parseUiHierarchy(readFileSync(new URL(`./fixtures/${name}.xml`, import.meta.url), 'utf8'));
const sceneOf = (name: string): Scene => {
  const hierarchy = hierarchyOf(name);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), { tokenBudget: Infinity });
};
const saying = (scene: Scene, label: string): SceneElement | undefined =>
  scene.elements.find((element) => element.desc === label || (element.text !== undefined && labelParts(element.text).includes(label)));
const canAct = (element: SceneElement | undefined) => Boolean(element?.clickable || element?.longClickable || element?.editable || element?.scrollable);

describe('collapsed containers', () => {
  it('Scenario: A collapsed container keeps its visible descendants and lends them its label', () => {
    const scene = sceneOf('webview-collapsed');
    // The page's container is [0,259][1080,259]; its buttons and texts are on screen with bounds of their own.
    expect(saying(scene, 'Your offers')).toMatchObject({ bounds: [63, 300, 1017, 380] });
    expect(saying(scene, 'Open a savings account')).toMatchObject({ type: 'Button', clickable: true, bounds: [63, 420, 1017, 540] });
    // The link's own box is [0,0][0,0]: its button, unlabeled itself, is named by it.
    expect(saying(scene, 'Apply for the travel card')).toMatchObject({ type: 'Button', clickable: true, bounds: [63, 580, 1017, 700] });
    expect(scene.elements.find((element) => element.bounds.join() === '63,580,1017,700')?.unlabeled).toBeUndefined();
    // A section reported off screen to the left keeps its button and its (collapsed) paragraph.
    expect(saying(scene, 'Get a loan quote')).toMatchObject({ clickable: true, bounds: [63, 760, 1017, 880] });
    expect(saying(scene, 'Rates from 3.1% a year')).toBeDefined();
    // A node is still dropped when it, itself, is invisible or off screen.
    expect(saying(scene, 'Hidden promo')).toBeUndefined();
    expect(saying(scene, 'Footer link')).toBeUndefined();
    expectActionableNodesRepresented(hierarchyOf('webview-collapsed'), scene);
    expectLabelsKept(hierarchyOf('webview-collapsed'), scene);
  });
});

describe('modal windows', () => {
  it('Scenario: What lies under a modal dialog is covered and the dialog is named', () => {
    const scene = sceneOf('dialog-over-list');
    expect(scene.screen.dialog).toBe('Delete Alice Martin?');
    expect(saying(scene, 'Delete')).toMatchObject({ clickable: true, window: 'dialog' });
    expect(saying(scene, 'Cancel')).toMatchObject({ clickable: true, window: 'dialog' });
    expect(saying(scene, 'This contact will be removed from this phone.')).toMatchObject({ window: 'dialog' });
    // Rows far from the dialog and the floating button cannot be tapped either: a tap outside a dialog closes it.
    for (const label of ['Alice Martin', 'Ines Moreau', 'Add contact']) {
      const element = saying(scene, label);
      expect(element, label).toMatchObject({ covered: true });
      expect(canAct(element), label).toBe(false);
    }
    expect(scene.elements.find((element) => element.resourceId === 'list')).toMatchObject({ covered: true });
    expect(scene.elements.find((element) => element.resourceId === 'list')?.scrollable).toBeUndefined();
    // The navigation bar is the system's, above every app window.
    expect(saying(scene, 'Back')).toMatchObject({ clickable: true, window: 'system' });
  });

  it('Scenario: A system dialog over an app covers the whole app', () => {
    const scene = sceneOf('dialog');
    expect(scene.screen.dialog).toBe('Allow Contacts to access your contacts?');
    // "Contacts" is the app's title at the top, far from the prompt in the middle.
    expect(saying(scene, 'Contacts')).toMatchObject({ covered: true });
    expect(saying(scene, 'Allow')).toMatchObject({ clickable: true, window: 'dialog' });
  });

  it('Scenario: A bottom sheet on a scrim covers the screen beneath it', () => {
    const scene = sceneOf('bottom-sheet-scrim');
    expect(scene.screen.dialog).toBe('Note options');
    for (const option of ['Share', 'Rename', 'Delete']) expect(saying(scene, option), option).toMatchObject({ clickable: true, window: 'dialog' });
    // The notes above the sheet lie under its scrim: a tap there closes the sheet.
    for (const note of ['Groceries', 'Trip to Lisbon', 'Workouts']) {
      expect(saying(scene, note), note).toMatchObject({ covered: true });
      expect(canAct(saying(scene, note)), note).toBe(false);
    }
    expect(saying(scene, 'Notes')).toMatchObject({ covered: true });
  });

  it('Scenario: Non-modal overlays cover nothing beyond themselves', () => {
    const scene = sceneOf('overlays-not-modal');
    expect(scene.screen.dialog).toBeUndefined();
    expect(scene.screen.keyboardShown).toBe(true);
    // A floating button and a snackbar are part of the app's window; the keyboard is a fact, not a dialog.
    expect(saying(scene, 'New note')).toMatchObject({ clickable: true });
    expect(saying(scene, 'Undo')).toMatchObject({ clickable: true });
    expect(saying(scene, 'Note archived')).toBeDefined();
    for (const note of ['Groceries', 'Trip to Lisbon', 'Book club']) expect(saying(scene, note), note).toMatchObject({ clickable: true });
    expect(scene.elements.find((element) => element.resourceId === 'search')).toMatchObject({ editable: true, clickable: true });
    // A toast floats over the list without taking its taps: only what lies right under it is covered.
    expect(saying(scene, 'Saved')).toMatchObject({ window: 'dialog' });
    expect(scene.elements.filter((element) => element.covered)).toEqual([]);
    expect(hasNoUsableTree(scene)).toBe(false);
  });
});

describe('screens with no usable tree', () => {
  it('Scenario: A screen drawn without a UI tree is recognised', () => {
    const scene = sceneOf('game-opaque');
    expect(scene.screen).toMatchObject({ width: 2400, height: 1080, orientation: 'landscape', rotation: 1, package: 'com.example.towerdefense' });
    expect(scene.elements).toHaveLength(1);
    expect(hasNoUsableTree(scene)).toBe(true);
    // Screens with controls, a dialog in front, or a lock screen's system elements are not such screens.
    for (const other of ['webview-collapsed', 'dialog-over-list', 'bottom-sheet-scrim']) expect(hasNoUsableTree(sceneOf(other)), other).toBe(false);
  });
});
