// The goal box grows with its lines — typed ones and long ones the width wraps — so no line of a goal is cut off,
// at 1280x800 and at 1920x1080, up to its largest size, past which it scrolls.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp } from './ui-support';
import { useUiFixture } from '../support/ui-fixture';

const ui = useUiFixture();

/** The box's height, and whether all of its text is in view (nothing cut off). */
const measure = (page: Page) =>
  page.getByLabel('What should the phone do?').evaluate((box: HTMLTextAreaElement) => ({ height: box.clientHeight, allShown: box.scrollHeight <= box.clientHeight + 1 }));

async function growsWithItsLines(size: { width: number; height: number }) {
  const { page, errors } = await openApp(ui.browser, ui.host);
  await page.setViewportSize(size);
  const box = page.getByLabel('What should the phone do?');
  await box.fill('Open Settings');
  const one = await measure(page);
  expect(one.allShown).toBe(true);
  // One typed line long enough to wrap, then a second typed line: each time the box grows and shows it all.
  const long = 'Open Messages, find the conversation with Alice about the dinner on Friday, and reply that I will be there at eight with the wine she asked for';
  await box.fill(long);
  const wrapped = await measure(page);
  expect(wrapped.height).toBeGreaterThan(one.height);
  expect(wrapped.allShown).toBe(true);
  await box.fill(`${long}\nThen tell me what she answered.`);
  const twoLines = await measure(page);
  expect(twoLines.height).toBeGreaterThan(wrapped.height);
  expect(twoLines.allShown).toBe(true);
  // Never taller than its limit: a very long goal scrolls inside the box.
  await box.fill(Array.from({ length: 40 }, (_, line) => `line ${line + 1}`).join('\n'));
  const many = await measure(page);
  expect(many.height).toBeLessThanOrEqual(Math.ceil(size.height * 0.3) + 1);
  expect(errors).toEqual([]);
  await page.close();
}

describe('the goal box', { timeout: 90_000 }, () => {
  it('Scenario: The goal box grows with its lines, wrapped ones too (1280x800)', () => growsWithItsLines({ width: 1280, height: 800 }));
  it('Scenario: The goal box grows with its lines, wrapped ones too (1920x1080)', () => growsWithItsLines({ width: 1920, height: 1080 }));
});
