// The contact editor's Name field through adb, for typing tests: GET /state's contact list then shows exactly what
// the field held once saved.
import { expect } from 'vitest';
import type { AdbHarness } from '../../support/adb-harness';
import { centerOf, parseDump, type DumpNode } from '../../tasks/phone-driver';

async function tapNode(harness: AdbHarness, match: (node: DumpNode) => boolean): Promise<void> {
  const node = parseDump((await harness.shell('uiautomator dump /dev/tty')).stdout).find(match);
  expect(node).toBeDefined();
  const { x, y } = centerOf(node!);
  await harness.shell(`input tap ${x} ${y}`);
}

/** Opens a new contact and focuses its Name field (the phone must allow Contacts). */
export async function focusNewContactName(harness: AdbHarness): Promise<void> {
  await harness.shell('am start -n com.android.contacts/.activities.PeopleActivity');
  await tapNode(harness, (node) => node.contentDesc === 'Create contact');
  await tapNode(harness, (node) => node.resourceId.endsWith('editor_name'));
  expect((await harness.state()).focusedField).toBe('com.android.contacts:id/editor_name');
}

/** Taps Save in the contact editor. */
export function saveContact(harness: AdbHarness): Promise<void> {
  return tapNode(harness, (node) => node.resourceId.endsWith('editor_menu_save_button'));
}
