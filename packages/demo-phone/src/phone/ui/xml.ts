import type { UiWindow, ViewNode } from './view';

/** Serializes windows the way Android 14's `uiautomator dump` does: one line, one root node per window. */

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeAttribute(value: string): string {
  let escaped = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    escaped += XML_ENTITIES[char] ?? (code < 0x20 ? `&#${code};` : char);
  }
  return escaped;
}

function serializeNode(node: ViewNode, index: number, pkg: string, out: string[]): void {
  const { bounds } = node;
  const flag = (value: boolean | undefined): string => (value ? 'true' : 'false');
  out.push(
    `<node index="${index}" text="${escapeAttribute(node.text ?? '')}" resource-id="${escapeAttribute(node.resourceId ?? '')}"` +
      ` class="${node.className}" package="${node.pkg ?? pkg}" content-desc="${escapeAttribute(node.contentDesc ?? '')}"` +
      ` checkable="${flag(node.checkable)}" checked="${flag(node.checked)}" clickable="${flag(node.clickable)}"` +
      ` enabled="${flag(node.enabled ?? true)}" focusable="${flag(node.focusable ?? (node.clickable || node.field !== undefined))}"` +
      ` focused="${flag(node.focused)}" scrollable="${flag(node.scrollable)}" long-clickable="${flag(node.longClickable)}"` +
      ` password="${flag(node.password)}" selected="${flag(node.selected)}"` +
      ` bounds="[${bounds.left},${bounds.top}][${bounds.right},${bounds.bottom}]"`,
  );
  if (node.children.length === 0) {
    out.push(' />');
    return;
  }
  out.push('>');
  node.children.forEach((child, childIndex) => serializeNode(child, childIndex, node.pkg ?? pkg, out));
  out.push('</node>');
}

export function hierarchyXml(windows: readonly UiWindow[]): string {
  const out: string[] = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"];
  for (const window of windows) serializeNode(window.root, 0, window.pkg, out);
  out.push('</hierarchy>');
  return out.join('');
}
