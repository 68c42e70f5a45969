import { DEFAULT_SCENE_TOKEN_BUDGET, joinLabelParts, sceneToJson, type Bounds, type Scene, type SceneElement, type ScreenFacts, type WindowKind } from '../../shared/scene';
import { childLabels, cleanLabel, saysAlready, shortClassName, shortResourceId, unlabeledHint } from './labels';
import { fitToBudget, estimateTokens } from './scene-budget';
import { readStatusBar } from './status-bar';
import type { UiHierarchy, UiNode } from './ui-hierarchy';
import { windowRoles } from './windows';

export { isKeyboardPackage } from './windows';

/** A clickable container larger than this share of the screen is a layout, not a row to fold labels into. */
const MAX_ROW_AREA_SHARE = 0.4;

const editableClass = /(EditText|AutoCompleteTextView|SearchView\$SearchAutoComplete)$/;

export interface SceneBuildOptions {
  /** The most tokens the Scene may take (see `estimateTokens`); elements beyond it are left out by priority. */
  tokenBudget?: number;
}

type ElementDraft = Omit<SceneElement, 'id'>;

interface FoldedLabel {
  label: string;
  /** Whether it was a content description (an icon's or image's name) rather than a text. */
  fromDesc: boolean;
}

interface Draft {
  element: ElementDraft;
  node: UiNode;
  /** The node's own text and description. */
  ownText: string;
  ownDesc: string;
  /** Labels of plain descendants folded into this element, in reading order, each once. */
  parts: FoldedLabel[];
  /** Whether texts of plain descendants fold into this element (a clickable row or a list item). */
  absorbsText: boolean;
  /** Whether a checkable child's state folds into this element. */
  absorbsCheck: boolean;
}

/** Where a node is: its window's kind (unset for the app's main window) and whether it is in the status bar. */
interface Place {
  window?: WindowKind;
  statusBar: boolean;
}

function clip([left, top, right, bottom]: Bounds, width: number, height: number): Bounds | null {
  const clipped: Bounds = [Math.max(0, left), Math.max(0, top), Math.min(width, right), Math.min(height, bottom)];
  return clipped[2] > clipped[0] && clipped[3] > clipped[1] ? clipped : null;
}

const sameBounds = (a: Bounds, b: Bounds) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
const isActionable = (node: UiNode) =>
  node.clickable || node.longClickable || node.scrollable || node.checkable || editableClass.test(node.className);

/**
 * A clickable wrapper whose one visible child is clickable with the very same bounds is one control: the child,
 * carrying whatever the wrapper adds (its label, id and flags). Labels that disagree keep both nodes.
 */
function mergeSameBoundsChild(node: UiNode): UiNode {
  if (!(node.clickable || node.longClickable)) return node;
  const visible = node.children.filter((child) => child.visible);
  const child = visible[0];
  if (visible.length !== 1 || !child || !child.clickable || !sameBounds(child.bounds, node.bounds)) return node;
  const conflict = (own: string, childs: string) => own !== '' && childs !== '' && own !== childs;
  if (conflict(node.text, child.text) || conflict(node.contentDesc, child.contentDesc)) return node;
  return mergeSameBoundsChild({
    ...child,
    text: child.text || node.text,
    contentDesc: child.contentDesc || node.contentDesc,
    resourceId: child.resourceId || node.resourceId,
    longClickable: child.longClickable || node.longClickable,
    focused: child.focused || node.focused,
    selected: child.selected || node.selected,
    enabled: child.enabled && node.enabled,
  });
}

/** How many plain labelled descendants would fold into this node if it were a row (actionable ones keep theirs). */
function foldableLabels(node: UiNode, limit: number): number {
  let count = 0;
  for (const child of node.children) {
    if (count >= limit) break;
    if (!child.visible || isActionable(child)) continue;
    if (cleanLabel(child.text) || cleanLabel(child.contentDesc)) count++;
    count += foldableLabels(child, limit - count);
  }
  return count;
}

/** Whether `label` begins with `start` as a whole word or more ("Stranger Things · S4 E7" begins with "Stranger Things"). */
function beginsWith(label: string, start: string): boolean {
  return label.toLowerCase().startsWith(start.toLowerCase()) && saysAlready(label.slice(0, start.length + 1), start);
}

/**
 * Folds one plain child's labels into a row, skipping what the row already says: its own text or description
 * (anywhere in them), an equal part, or, between an image's name and a text, one that begins with the other (the
 * longer stays). Texts are compared only for equality: a message "Did you read it?" must keep its "Read" tick.
 */
function addFoldedLabels(draft: Draft, text: string, desc: string): void {
  for (const label of childLabels(text, desc)) {
    const fromDesc = label !== text;
    if ((draft.ownText && saysAlready(draft.ownText, label)) || (draft.ownDesc && saysAlready(draft.ownDesc, label))) continue;
    if (draft.parts.some((part) => part.label.toLowerCase() === label.toLowerCase())) continue;
    const overlapping = draft.parts.findIndex((part) => part.fromDesc !== fromDesc && (beginsWith(part.label, label) || beginsWith(label, part.label)));
    if (overlapping < 0) draft.parts.push({ label, fromDesc });
    else if (label.length > draft.parts[overlapping]!.label.length) draft.parts[overlapping] = { label, fromDesc };
  }
}

/** The element as the planner reads it: merged labels joined, a lone icon name as `desc`, unlabeled marked. */
function finish(draft: Draft): ElementDraft {
  const { element, ownText, ownDesc } = draft;
  const parts = draft.parts.map((part) => part.label);
  let desc = ownDesc;
  let texts = ownText ? [ownText, ...parts] : parts;
  if (!ownText && !ownDesc && draft.parts.length === 1 && draft.parts[0]!.fromDesc) {
    desc = parts[0]!;
    texts = [];
  }
  // An editable field's text is its content, verbatim (the planner compares it with what it typed); it folds nothing.
  if (texts.length) element.text = element.editable ? ownText : joinLabelParts(texts);
  if (desc && !(texts.length === 1 && texts[0] === desc)) element.desc = desc;
  const actsAsControl = element.clickable || element.longClickable || element.editable || element.checked !== undefined;
  if (actsAsControl && !element.text && !element.desc && !element.hint) element.unlabeled = unlabeledHint(draft.node);
  return element;
}

/**
 * Turns a UI hierarchy into the Scene the planner reads. Rules, in order:
 * - each top-level window is classified (see `windowRoles`): keyboard windows are left out (`keyboardShown` says
 *   it), the status bar becomes `screen.status` (its icons are elements only when actionable), and elements of
 *   dialogs, popups, System UI and other apps' windows carry `window`;
 * - invisible, zero-area and off-screen nodes are dropped with their subtrees;
 * - a clickable wrapper and its single same-bounds clickable child are one element;
 * - a node is kept when it can be acted on (clickable, long-clickable, scrollable, checkable, editable) or
 *   carries text or a content description; other nodes are layout wrappers and vanish, except a list item (child
 *   of a scrollable list) with several labels, which keeps them together;
 * - the labels of plain children of a clickable row or list item fold into it: every text and every description
 *   that says something the row does not already say, in reading order (see `joinLabelParts`); a non-clickable
 *   switch inside such a row gives the row its `checked`;
 * - an actionable element without any label gets `unlabeled`, a hint from its resource id or class;
 * - beyond the token budget, elements are left out by priority (see `fitToBudget`) and counted;
 * - elements keep the dump's depth-first order (reading order), numbered e1, e2, ...
 */
export function buildScene(hierarchy: UiHierarchy, facts: ScreenFacts, options: SceneBuildOptions = {}): Scene {
  const screen: ScreenFacts = { ...facts };
  const drafts: Draft[] = [];
  const screenArea = screen.width * screen.height;

  const visit = (original: UiNode, owner: Draft | null, place: Place, inList: boolean) => {
    if (!original.visible) return;
    const node = mergeSameBoundsChild(original);
    const bounds = clip(node.bounds, screen.width, screen.height);
    if (!bounds) return;
    const text = cleanLabel(node.text);
    const desc = cleanLabel(node.contentDesc);
    const hint = cleanLabel(node.hint);
    const editable = editableClass.test(node.className);
    const actionable = isActionable(node);
    const area = (bounds[2] - bounds[0]) * (bounds[3] - bounds[1]);
    const visitChildren = (nextOwner: Draft | null) => {
      for (const child of node.children) visit(child, nextOwner, place, node.scrollable);
    };

    if (place.statusBar && !actionable) return visitChildren(null);
    if (!actionable && owner?.absorbsText && (text || desc)) {
      addFoldedLabels(owner, text, desc);
      return visitChildren(owner);
    }
    if (node.checkable && !node.clickable && !text && owner?.absorbsCheck && owner.element.checked === undefined) {
      owner.element.checked = node.checked;
      return visitChildren(owner);
    }
    const listItem = !actionable && !text && !desc && inList && area <= screenArea * MAX_ROW_AREA_SHARE && foldableLabels(node, 2) >= 2;
    if (!actionable && !text && !desc && !listItem) return visitChildren(owner);

    const element: ElementDraft = { type: shortClassName(node.className), bounds };
    if (hint && hint !== text) element.hint = hint;
    const resourceId = shortResourceId(node.resourceId);
    if (resourceId) element.resourceId = resourceId;
    if (node.clickable) element.clickable = true;
    if (node.longClickable) element.longClickable = true;
    if (node.scrollable) element.scrollable = true;
    if (editable) element.editable = true;
    if (node.focused) element.focused = true;
    if (node.selected) element.selected = true;
    if (node.password) element.password = true;
    if (node.checkable) element.checked = node.checked;
    if (!node.enabled) element.disabled = true;
    if (place.window) element.window = place.window;

    const isRow = (node.clickable || node.longClickable) && !node.scrollable && !editable && area <= screenArea * MAX_ROW_AREA_SHARE;
    const draft: Draft = {
      element,
      node,
      ownText: text,
      ownDesc: desc,
      parts: [],
      absorbsText: isRow || listItem,
      absorbsCheck: isRow && !node.checkable,
    };
    drafts.push(draft);
    visitChildren(draft);
  };

  const roles = windowRoles(hierarchy.roots, screen);
  hierarchy.roots.forEach((root, index) => {
    const role = roles[index]!;
    if (role === 'keyboard') return;
    if (role === 'status-bar') {
      screen.status = { ...screen.status, ...readStatusBar(root) };
      visit(root, null, { window: 'system', statusBar: true }, false);
      return;
    }
    visit(root, null, { statusBar: false, ...(role !== 'app' && { window: role }) }, false);
  });
  if (screen.status && Object.keys(screen.status).length === 0) delete screen.status;

  const elements = drafts.map(finish);
  const budget = options.tokenBudget ?? DEFAULT_SCENE_TOKEN_BUDGET;
  const fixedTokens = estimateTokens(sceneToJson({ screen, elementsLeftOut: elements.length, elements: [] }));
  const kept = fitToBudget(elements, fixedTokens, budget);
  const scene: Scene = { screen, elements: kept.map((element, index) => orderKeys({ id: `e${index + 1}`, ...element })) };
  if (kept.length < elements.length) return { screen, elementsLeftOut: elements.length - kept.length, elements: scene.elements };
  return scene;
}

/** Fixed key order so the JSON reads the same way for every element. */
function orderKeys(element: SceneElement): SceneElement {
  const { id, type, text, desc, hint, unlabeled, resourceId, bounds, window, ...flags } = element;
  return {
    id,
    type,
    ...(text !== undefined && { text }),
    ...(desc !== undefined && { desc }),
    ...(hint !== undefined && { hint }),
    ...(unlabeled !== undefined && { unlabeled }),
    ...(resourceId !== undefined && { resourceId }),
    bounds,
    ...flags,
    ...(window !== undefined && { window }),
  };
}
