// "Jump to latest" in real Chromium at 1280x800 and 1920x1080, in English and in Chinese: it sits beside the step
// list, outside the steps' scrolling area, so it never covers a step or the result card, whatever part is in view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { wordsFor } from '../../src/shared/i18n/translate';
import { finish, type FakePolicy } from '../fakes/index';
import { launchTestBrowser, type TestBrowser } from '../support/browser';
import { useAnthropicFake, useUiFixture } from '../support/ui-fixture';
import { anthropicFakeEnv, saveScreenshot, selectPhone } from './ui-support';

/** Waits a moment `count` times (a little longer each time, so it is no loop), then finishes. */
function shortWaits(count: number): FakePolicy {
  let turns = 0;
  return () => (++turns <= count ? { kind: 'call', tool: 'wait', args: { seconds: 0.1 + turns / 100 }, text: `Waiting, turn ${turns}.\nA second line.` } : finish(true, 'Waited.'));
}

const model = useAnthropicFake(() => finish(true, 'Done.'));
const ui = useUiFixture({ env: () => anthropicFakeEnv(model.fake.url) });
let chinese: TestBrowser | undefined;
beforeAll(async () => {
  chinese = await launchTestBrowser(undefined, 'zh-CN');
}, 60_000);
afterAll(() => chinese?.close());

type Box = { top: number; bottom: number; left: number; right: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The rectangles that matter: the button, the steps' area, and every step card and the result card shown in it. */
const rectangles = (page: Page) =>
  page.evaluate(() => {
    const box = (element: Element) => {
      const { top, bottom, left, right } = element.getBoundingClientRect();
      return { top, bottom, left, right };
    };
    const area = document.querySelector('[data-testid="timeline-scroll"]')!;
    const shown = box(area);
    const cards = [...area.querySelectorAll('[data-testid="step-card"], article')]
      .map(box)
      .filter((card) => card.bottom > shown.top && card.top < shown.bottom)
      .map((card) => ({ ...card, top: Math.max(card.top, shown.top), bottom: Math.min(card.bottom, shown.bottom) }));
    return { button: box(document.querySelector('.jump-latest')!), area: shown, cards };
  });

const LANGUAGES = ['en', 'zh-CN'] as const;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

describe('"Jump to latest" never covers the steps or the result', { timeout: 180_000 }, () => {
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      it(`Scenario: Jump to latest sits outside the steps and covers no card (${language}, ${size.width}x${size.height})`, async () => {
        await ui.host.harness.reset();
        const { t } = wordsFor(language);
        const page = await (language === 'en' ? ui.browser : chinese!).context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.setViewportSize(size);
        await page.goto(ui.host.app.url);
        await selectPhone(page, ui.host.harness.serial);
        model.policy = shortWaits(14);
        const goal = page.getByLabel(t('app:goal.question'));
        await goal.fill(language === 'en' ? 'Wait fourteen times' : '等十四次');
        await goal.press('Enter');
        // Waits are no action, so the card reads "Done, not verified"; which card it is does not matter here.
        const result = page.getByTestId('task-result');
        await result.waitFor({ timeout: 90_000 });
        const area = page.getByTestId('timeline-scroll');
        const jump = page.getByRole('button', { name: t('app:timeline.jumpLatest') });

        // Scrolled a little and a lot: wherever the view is, the button covers nothing of the steps or the result.
        for (const fraction of [0.6, 0.3, 0]) {
          await area.evaluate((element, at) => {
            element.scrollTop = (element.scrollHeight - element.clientHeight) * at;
            element.dispatchEvent(new Event('scroll'));
          }, fraction);
          await jump.waitFor();
          const { button, area: shown, cards } = await rectangles(page);
          expect(overlaps(button, shown), `the button over the steps' area at ${fraction}`).toBe(false);
          expect(cards.filter((card) => overlaps(button, card))).toEqual([]);
          expect(button.bottom).toBeLessThanOrEqual(size.height);
          if (fraction === 0.6) await saveScreenshot(page, `jump-latest-${language}-${size.width}x${size.height}`);
        }
        // The jump brings the result back in view, and the button goes.
        await jump.click();
        await jump.waitFor({ state: 'detached' });
        const shown = (await area.boundingBox())!;
        const card = (await result.boundingBox())!;
        expect(card.y + card.height).toBeLessThanOrEqual(shown.y + shown.height + 1);
        expect(errors).toEqual([]);
        await page.close();
      });
    }
  }
});
