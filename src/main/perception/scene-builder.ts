import type { Bounds, Scene, SceneElement, ScreenFacts } from '../../shared/scene';
import type { UiHierarchy, UiNode } from './ui-hierarchy';

/** Where a merged row's texts are joined: short, and unlikely inside a label. */
const TEXT_SEPARATOR = ' | ';
/** A clickable container larger than this share of the screen is a layout, not a row to fold labels into. */
const MAX_ROW_AREA_SHARE = 0.4;

const editableClass = /(EditText|AutoCompleteTextView|SearchView\$SearchAutoComplete)$/;

/** Packages of input methods: their keys are not Scene elements (type_text types; the keyboard is a fact). */
export function isKeyboardPackage(packageName: string): boolean {
  return /inputmethod|keyboard|honeyboard|swiftkey|\.ime\b/i.test(packageName);
}

interface Draft {
  element: Omit<SceneElement, 'id'>;
  /** Whether texts of plain-text descendants fold into this element (a clickable row). */
  absorbsText: boolean;
  /** Whether a checkable child's state folds into this element. */
  absorbsCheck: boolean;
}

function shortClassName(className: string): string {
  const name = className.slice(className.lastIndexOf('.') + 1);
  return name.slice(name.lastIndexOf('$') + 1) || 'View';
}

function shortResourceId(resourceId: string): string | undefined {
  if (!resourceId) return undefined;
  const index = resourceId.indexOf(':id/');
  return index >= 0 ? resourceId.slice(index + 4) : resourceId;
}

function clip([left, top, right, bottom]: Bounds, width: number, height: number): Bounds | null {
  const clipped: Bounds = [Math.max(0, left), Math.max(0, top), Math.min(width, right), Math.min(height, bottom)];
  return clipped[2] > clipped[0] && clipped[3] > clipped[1] ? clipped : null;
}

/** Labels keep their inner spacing and line breaks: the planner compares typed text with what it reads. */
const clean = (value: string) => value.replace(/\r\n?/g, '\n').trim();

function appendText(element: Omit<SceneElement, 'id'>, text: string): void {
  if (!element.text) element.text = text;
  else if (!element.text.split(TEXT_SEPARATOR).includes(text)) element.text += `${TEXT_SEPARATOR}${text}`;
  if (element.desc === element.text) delete element.desc;
}

/**
 * Turns a UI hierarchy into the Scene the planner reads. Rules, in order:
 * - invisible, zero-area and off-screen nodes are dropped with their subtrees, and so are keyboard windows;
 * - a node is kept when it can be acted on (clickable, long-clickable, scrollable, checkable, editable) or
 *   carries text or a content description; other nodes are layout wrappers and vanish;
 * - the label of a plain text/icon child of a clickable row folds into the row (`text` joined by " | ", or
 *   `desc` when the row has none), and a non-clickable switch inside such a row gives the row its `checked`;
 * - elements keep the dump's depth-first order (reading order), numbered e1, e2, ...
 */
export function buildScene(hierarchy: UiHierarchy, screen: ScreenFacts): Scene {
  const drafts: Draft[] = [];
  const screenArea = screen.width * screen.height;

  const visit = (node: UiNode, owner: Draft | null) => {
    if (!node.visible || isKeyboardPackage(node.packageName)) return;
    const bounds = clip(node.bounds, screen.width, screen.height);
    if (!bounds) return;
    const text = clean(node.text);
    const desc = clean(node.contentDesc);
    const hint = clean(node.hint);
    const editable = editableClass.test(node.className);
    const actionable = node.clickable || node.longClickable || node.scrollable || node.checkable || editable;

    if (!actionable && owner?.absorbsText && (text || desc)) {
      if (text) appendText(owner.element, text);
      else if (!owner.element.text && !owner.element.desc) owner.element.desc = desc;
      for (const child of node.children) visit(child, owner);
      return;
    }
    if (node.checkable && !node.clickable && !text && owner?.absorbsCheck && owner.element.checked === undefined) {
      owner.element.checked = node.checked;
      for (const child of node.children) visit(child, owner);
      return;
    }
    if (!actionable && !text && !desc) {
      for (const child of node.children) visit(child, owner);
      return;
    }

    const element: Omit<SceneElement, 'id'> = { type: shortClassName(node.className), bounds };
    if (text) element.text = text;
    if (desc && desc !== text) element.desc = desc;
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

    const area = (bounds[2] - bounds[0]) * (bounds[3] - bounds[1]);
    const isRow = (node.clickable || node.longClickable) && !node.scrollable && !editable && area <= screenArea * MAX_ROW_AREA_SHARE;
    const draft: Draft = { element, absorbsText: isRow, absorbsCheck: isRow && !node.checkable };
    drafts.push(draft);
    for (const child of node.children) visit(child, draft);
  };

  for (const root of hierarchy.roots) visit(root, null);
  return {
    screen,
    elements: drafts.map(({ element }, index) => orderKeys({ id: `e${index + 1}`, ...element } as SceneElement)),
  };
}

/** Fixed key order so the JSON reads the same way for every element. */
function orderKeys(element: SceneElement): SceneElement {
  const { id, type, text, desc, hint, resourceId, bounds, ...flags } = element;
  return {
    id,
    type,
    ...(text !== undefined && { text }),
    ...(desc !== undefined && { desc }),
    ...(hint !== undefined && { hint }),
    ...(resourceId !== undefined && { resourceId }),
    bounds,
    ...flags,
  };
}
