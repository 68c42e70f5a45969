import {
  DEFAULT_SCENE_TOKEN_BUDGET,
  joinLabelParts,
  labelParts,
  sceneToJson,
  type Bounds,
  type Scene,
  type SceneElement,
  type ScreenFacts,
  type WindowKind,
} from '../../shared/scene';
import { childLabels, cleanLabel, saysAlready, shortClassName, shortResourceId, unlabeledHint } from './labels';
import { fitToBudget, estimateTokens, type RepeatInfo } from './scene-budget';
import { isStatusBarNode, readStatusBar } from './status-bar';
import type { UiHierarchy, UiNode } from './ui-hierarchy';
import { modalWindows, windowRoles } from './windows';

export { isKeyboardPackage } from './windows';

/** A clickable container larger than this share of the screen is a layout, not a row to fold labels into. */
const MAX_ROW_AREA_SHARE = 0.4;

/** A row's label names the row; its first words are enough to tell it from the next. */
const MAX_ROW_LABEL_CHARS = 60;

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

/** One row of a list (a child of a scrollable container), which the elements inside it share. */
interface Row {
  id: number;
}

interface Draft {
  element: ElementDraft;
  node: UiNode;
  /** The list row the element is in, if any. */
  row: Row | null;
  /** The index of its window (root) in the dump. */
  windowIndex: number;
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
  windowIndex: number;
}

function clip([left, top, right, bottom]: Bounds, width: number, height: number): Bounds | null {
  const clipped: Bounds = [Math.max(0, left), Math.max(0, top), Math.min(width, right), Math.min(height, bottom)];
  return clipped[2] > clipped[0] && clipped[3] > clipped[1] ? clipped : null;
}

const overlaps = (a: Bounds, b: Bounds) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
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
 *   it), the status bar (a thin strip, or the status bar strip inside a full-screen System UI window such as a lock
 *   screen) becomes `screen.status` (its icons are elements only when actionable), and elements of dialogs, popups,
 *   System UI and other apps' windows carry `window`; elements a dialog or popup lies over are `covered`;
 * - invisible, zero-area and off-screen nodes are dropped with their subtrees;
 * - a clickable wrapper and its single same-bounds clickable child are one element;
 * - a node is kept when it can be acted on (clickable, long-clickable, scrollable, checkable, editable) or
 *   carries text or a content description; other nodes are layout wrappers and vanish, except a list item (child
 *   of a scrollable list) with several labels, which keeps them together;
 * - the labels of plain children of a clickable row or list item fold into it: every text and every description
 *   that says something the row does not already say, in reading order (see `joinLabelParts`); a non-clickable
 *   switch inside such a row gives the row its `checked`;
 * - an actionable element without any label gets `unlabeled`, a hint from its resource id or class;
 * - a control repeated on the rows of a list gets its row's label as `row`;
 * - beyond the token budget, giant labels are shortened, repeated row controls folded, then elements left out by
 *   priority (see `fitToBudget`), all of it counted;
 * - elements keep the dump's depth-first order (reading order), numbered e1, e2, ...
 */
export function buildScene(hierarchy: UiHierarchy, facts: ScreenFacts, options: SceneBuildOptions = {}): Scene {
  const screen: ScreenFacts = { ...facts };
  const drafts: Draft[] = [];
  const screenArea = screen.width * screen.height;

  let rows = 0;
  /**
   * `lent` is the label of a collapsed ancestor (zero-size or off screen, as WebView and Chrome report many
   * containers) that the first unlabeled elements beneath it take.
   */
  const visit = (original: UiNode, owner: Draft | null, place: Place, inList: boolean, row: Row | null, lent?: string) => {
    if (!original.visible) return;
    const node = mergeSameBoundsChild(original);
    const bounds = clip(node.bounds, screen.width, screen.height);
    // A node is judged by its own bounds: the children of a collapsed container can still be on screen.
    if (!bounds) {
      const label = cleanLabel(node.contentDesc) || cleanLabel(node.text) || lent;
      for (const child of node.children) visit(child, owner, place, node.scrollable, node.scrollable ? { id: ++rows } : row, label);
      return;
    }
    if (place.window === 'system' && !place.statusBar && isStatusBarNode(node, screen.height)) {
      screen.status = { ...screen.status, ...readStatusBar(node) };
      return visit(original, owner, { ...place, statusBar: true }, inList, row);
    }
    const text = cleanLabel(node.text);
    const ownDesc = cleanLabel(node.contentDesc);
    const hint = cleanLabel(node.hint);
    const editable = editableClass.test(node.className);
    const actionable = isActionable(node);
    const takesLent = lent !== undefined && actionable && !text && !ownDesc && !hint;
    const desc = takesLent ? lent : ownDesc;
    const area = (bounds[2] - bounds[0]) * (bounds[3] - bounds[1]);
    const visitChildren = (nextOwner: Draft | null) => {
      const passOn = takesLent || text || desc ? undefined : lent;
      for (const child of node.children) visit(child, nextOwner, place, node.scrollable, node.scrollable ? { id: ++rows } : row, passOn);
    };

    if (place.statusBar && !actionable) return visitChildren(null);
    // A label drawn outside its row (a tab's caption below the tab's reported bounds) stays where a person reads it.
    if (!actionable && owner?.absorbsText && (text || desc) && overlaps(owner.element.bounds, bounds)) {
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
      row,
      windowIndex: place.windowIndex,
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
  hierarchy.roots.forEach((root, windowIndex) => {
    const role = roles[windowIndex]!;
    if (role === 'keyboard') return;
    if (role === 'status-bar') {
      screen.status = { ...screen.status, ...readStatusBar(root) };
      visit(root, null, { window: 'system', statusBar: true, windowIndex }, false, null);
      return;
    }
    visit(root, null, { statusBar: false, windowIndex, ...(role !== 'app' && { window: role }) }, false, null);
  });
  if (screen.status && Object.keys(screen.status).length === 0) delete screen.status;

  const elements = drafts.map(finish);
  const modal = modalWindows(hierarchy.roots, roles);
  const fullScreen: Bounds = [0, 0, screen.width, screen.height];
  markCovered(drafts, hierarchy.roots.map((root, index) => (modal[index] ? fullScreen : roles[index] === 'dialog' || roles[index] === 'popup' ? root.bounds : null)));
  const dialog = dialogInFront(drafts, modal);
  if (dialog) screen.dialog = dialog;
  const repeats = markRepeats(drafts);
  const budget = options.tokenBudget ?? DEFAULT_SCENE_TOKEN_BUDGET;
  const fixedTokens = estimateTokens(sceneToJson({ screen, elementsLeftOut: elements.length, elements: [] }));
  const cut = fitToBudget(elements, repeats, fixedTokens, budget);
  return {
    screen,
    ...(cut.foldedRepeats.length > 0 && { foldedRepeats: cut.foldedRepeats }),
    ...(cut.leftOut > 0 && { elementsLeftOut: cut.leftOut }),
    elements: cut.elements.map((element, index) => orderKeys({ id: `e${index + 1}`, ...element })),
  };
}

const centre = ([left, top, right, bottom]: Bounds) => [(left + right) / 2, (top + bottom) / 2] as const;
const holds = ([left, top, right, bottom]: Bounds, [x, y]: readonly [number, number]) => left <= x && x < right && top <= y && y < bottom;

/**
 * Marks the elements of the app's (or another app's) windows that a dialog or popup lies over: they stay listed for
 * what they say, but lose their action flags, since a tap there lands on the dialog.
 */
function markCovered(drafts: readonly Draft[], overlays: ReadonlyArray<Bounds | null>): void {
  if (overlays.every((overlay) => overlay === null)) return;
  for (const { element, windowIndex } of drafts) {
    if (element.window === 'dialog' || element.window === 'popup' || element.window === 'system') continue;
    const point = centre(element.bounds);
    if (!overlays.some((overlay, index) => overlay && index !== windowIndex && holds(overlay, point))) continue;
    element.covered = true;
    for (const action of ['clickable', 'longClickable', 'scrollable', 'editable', 'focused'] as const) delete element[action];
    delete element.unlabeled;
  }
}

/** A dialog's title is this long at most in `screen.dialog`: enough to tell which dialog it is. */
const MAX_DIALOG_TITLE_CHARS = 80;

/**
 * What the topmost modal window says first (its title, else its message, else its first button), for
 * `screen.dialog`: the planner and a failed flow step name the dialog in front by it.
 */
function dialogInFront(drafts: readonly Draft[], modal: readonly boolean[]): string | undefined {
  const top = modal.lastIndexOf(true);
  if (top < 0) return undefined;
  const inDialog = drafts.filter((draft) => draft.windowIndex === top);
  const title = inDialog.find(({ element }) => /title/i.test(element.resourceId ?? '') && element.text) ?? inDialog.find(({ element }) => !element.clickable && (element.text || element.desc)) ?? inDialog.find(({ element }) => element.text || element.desc);
  const said = title ? firstLabel(title.element) : undefined;
  if (!said) return 'untitled';
  return said.length > MAX_DIALOG_TITLE_CHARS ? `${said.slice(0, MAX_DIALOG_TITLE_CHARS - 1)}…` : said;
}

/** What an element says first: its text's first part, else its description. */
const firstLabel = (element: ElementDraft) => (element.text ? labelParts(element.text)[0] : undefined) ?? element.desc;
const isControl = (element: ElementDraft) => !element.covered && !!(element.clickable || element.longClickable || element.checked !== undefined);

/**
 * Finds the controls repeated on the rows of a list (the same control, by resource id or else by label, on two rows
 * or more: "Add star", "Reply"), gives each its row's label (the first thing the row says that is not itself a
 * repeated control), and chooses the one element each row keeps when repeats are folded: the row's own control if
 * it has one, else its first repeated control.
 */
function markRepeats(drafts: readonly Draft[]): Array<RepeatInfo | undefined> {
  // A resource id names the control whatever it shows (a reply button's count differs on every row).
  const keyOf = ({ element }: Draft) => [element.type, element.resourceId ?? [element.text, element.desc, element.unlabeled].join('\u0000')].join('\u0000');
  // A control that carries labels of its own children is a row (or a card) itself, not a control on one.
  const isRepeatable = (draft: Draft) => !!draft.row && isControl(draft.element) && draft.parts.length === 0;
  const ownLabel = ({ element }: Draft) => element.desc ?? element.unlabeled ?? element.text ?? element.type;
  const rowsByKey = new Map<string, Set<number>>();
  const labelsByKey = new Map<string, Set<string>>();
  for (const draft of drafts) {
    if (!isRepeatable(draft)) continue;
    const key = keyOf(draft);
    rowsByKey.set(key, (rowsByKey.get(key) ?? new Set()).add(draft.row!.id));
    labelsByKey.set(key, (labelsByKey.get(key) ?? new Set()).add(ownLabel(draft)));
  }
  const repeated = drafts.map((draft) => isRepeatable(draft) && rowsByKey.get(keyOf(draft))!.size >= 2);

  const rowLabels = new Map<number, string>();
  const rowsWithOwnControl = new Set<number>();
  drafts.forEach((draft, index) => {
    if (!draft.row || repeated[index]) return;
    const label = firstLabel(draft.element);
    if (label && !rowLabels.has(draft.row.id)) rowLabels.set(draft.row.id, label);
    if (isControl(draft.element)) rowsWithOwnControl.add(draft.row.id);
  });

  const rowsKeeping = new Set<number>();
  return drafts.map((draft, index) => {
    if (!repeated[index]) return undefined;
    const { element, row } = draft;
    const rowLabel = rowLabels.get(row!.id);
    // Folded repeats are counted under the label they share, or under their resource id when each says its own.
    const labels = labelsByKey.get(keyOf(draft))!;
    const label = labels.size === 1 ? ownLabel(draft) : element.resourceId!;
    if (rowLabel && rowLabel !== ownLabel(draft)) element.row = rowLabel.length > MAX_ROW_LABEL_CHARS ? `${rowLabel.slice(0, MAX_ROW_LABEL_CHARS)}…` : rowLabel;
    const keptForRow = !rowsWithOwnControl.has(row!.id) && !rowsKeeping.has(row!.id);
    if (keptForRow) rowsKeeping.add(row!.id);
    return { label, keptForRow };
  });
}

/** Fixed key order so the JSON reads the same way for every element. */
function orderKeys(element: SceneElement): SceneElement {
  const { id, type, text, desc, hint, unlabeled, row, resourceId, bounds, window, ...flags } = element;
  return {
    id,
    type,
    ...(text !== undefined && { text }),
    ...(desc !== undefined && { desc }),
    ...(hint !== undefined && { hint }),
    ...(unlabeled !== undefined && { unlabeled }),
    ...(row !== undefined && { row }),
    ...(resourceId !== undefined && { resourceId }),
    bounds,
    ...flags,
    ...(window !== undefined && { window }),
  };
}
