import type { AdbHarness } from './adb-harness';

const escapedForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Centre of the first node of the phone's own UI dump whose text is `name` (or, written `#id`, whose resource id ends
 * with `id`): where a person's finger would go, read apart from the app's own perception.
 */
export async function centreOnPhone(harness: AdbHarness, name: string): Promise<{ x: number; y: number }> {
  const xml = (await harness.adb(['-s', harness.serial, 'shell', 'uiautomator dump /dev/tty'])).stdout;
  const wanted = name.startsWith('#')
    ? `resource-id="[^"]*${escapedForPattern(name.slice(1))}"`
    : `text="${escapedForPattern(name.replace(/&/g, '&amp;'))}"`;
  const node = new RegExp(`${wanted}[^>]*?bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml);
  if (!node) throw new Error(`no "${name}" on the screen`);
  const [left, top, right, bottom] = node.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}
