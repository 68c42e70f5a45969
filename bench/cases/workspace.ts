// The workspace during a long task, in a real page (headless Chromium over the web host, the app's own UI): after 30
// steps, how tall a step card and the whole timeline are, whether the page scrolls and the phone is wholly in view,
// how large the mirror is drawn by default and at the splitter's widest, at 1280x800 and 1920x1080; and how long
// typing on the mirror takes to reach the phone's field (ASCII by `input text`, non-ASCII through the IME).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startWebApp } from '../../src/app/start-web-app';
import { finish, startAnthropicFake, FAKE_ANTHROPIC_KEY, type FakePolicy } from '../../test/fakes/index';
import { startAdbHarness, type AdbHarness } from '../../test/support/adb-harness';
import { launchTestBrowser } from '../../test/support/browser';
import { median, type BenchCase, type BenchRow } from '../types';

const name = 'workspace';
const STEPS = 30;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

function homePresses(count: number): FakePolicy {
  let turns = 0;
  return () => (++turns <= count ? { kind: 'call', tool: 'press_key', args: { key: 'home' }, text: `Turn ${turns}.` } : finish(true, 'Done.'));
}

interface Layout {
  cardHeights: number[];
  timelineHeight: number;
  pageOverflow: number;
  mirrorWidth: number;
  mirrorHeight: number;
  mirrorInView: 0 | 1;
}

/** Runs in the page (a string: the bench is type-checked without the DOM library). */
const MEASURE_LAYOUT = `(() => {
  const canvas = document.querySelector('[data-testid="mirror-canvas"]')?.getBoundingClientRect();
  const cards = [...document.querySelectorAll('[data-testid="step-card"]')].map((card) => card.getBoundingClientRect().height);
  return {
    cardHeights: cards,
    timelineHeight: document.querySelector('[data-testid="timeline-scroll"]')?.scrollHeight ?? Number.NaN,
    pageOverflow: document.documentElement.scrollHeight - window.innerHeight,
    mirrorWidth: canvas?.width ?? 0,
    mirrorHeight: canvas?.height ?? 0,
    mirrorInView: !!canvas && canvas.top >= 0 && canvas.bottom <= window.innerHeight && canvas.right <= window.innerWidth ? 1 : 0,
  };
})()`;

/** Three frames: the window's new size reaches the layout, the mirror's fit and their paint. */
const SETTLE = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done))))';

/** Sizes in the page as a person sees them, once the page has followed a change of the window or the splitter. */
async function measureLayout(page: Page): Promise<Layout> {
  await page.evaluate(SETTLE);
  return page.evaluate(MEASURE_LAYOUT) as Promise<Layout>;
}

/** Clicks the note body on the mirror (by the phone's own UI dump), so typing goes to it. */
async function focusNoteBody(page: Page, harness: AdbHarness): Promise<void> {
  await harness.reset({ adbKeyboard: true, foreground: 'com.amc.notes' });
  const dump = async () => (await harness.shell('uiautomator dump /dev/tty')).stdout;
  const centre = (xml: string, id: string) => {
    const match = new RegExp(`resource-id="[^"]*${id}"[^>]*?bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml);
    if (!match) throw new Error(`no ${id} on the screen`);
    const [left, top, right, bottom] = match.slice(1).map(Number) as [number, number, number, number];
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
  };
  const click = async (id: string) => {
    const point = centre(await dump(), id);
    const box = (await page.getByTestId('mirror-canvas').boundingBox())!;
    await page.mouse.click(box.x + (point.x / 1080) * box.width, box.y + (point.y / 2400) * box.height);
  };
  await click('add_note');
  const deadline = Date.now() + 20_000;
  while (!/resource-id="[^"]*note_body"/.test(await dump())) {
    if (Date.now() > deadline) throw new Error('the new note did not open');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await click('note_body');
  while (!(await harness.state()).focusedField?.endsWith('note_body')) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** ms from the first key to the phone's field holding all of `text`. */
async function typingTime(page: Page, harness: AdbHarness, text: string): Promise<number> {
  await focusNoteBody(page, harness);
  const started = performance.now();
  await page.keyboard.type(text);
  for (;;) {
    const xml = (await harness.shell('uiautomator dump /dev/tty')).stdout;
    if (new RegExp(`text="${text}"[^>]*?resource-id="[^"]*note_body"`).test(xml)) return performance.now() - started;
    if (performance.now() - started > 60_000) return Number.NaN;
  }
}

const workspaceBench: BenchCase = {
  name,
  async run() {
    const harness = await startAdbHarness();
    const fake = await startAnthropicFake({ policy: homePresses(STEPS) });
    const home = await mkdtemp(path.join(os.tmpdir(), 'amc-bench-workspace-'));
    const app = await startWebApp({
      home,
      env: {
        PATH: process.env.PATH,
        HOME: harness.env.HOME,
        ANDROID_ADB_SERVER_PORT: harness.env.ANDROID_ADB_SERVER_PORT,
        AI_PLANNER_ENABLED: 'true',
        AI_PLANNER_PROVIDER: 'anthropic',
        AI_PLANNER_TRANSPORT: 'direct',
        AI_PLANNER_MODEL: 'claude-bench',
        AI_PLANNER_MAX_STEPS: String(STEPS + 5),
        // Pressing Home 30 times is the point here, not a loop for the guard to stop (it asks the person after 3).
        TASK_LOOP_WARN_AFTER: '20',
        TASK_LOOP_STOP_AFTER: '50',
        ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: fake.url,
      },
    });
    const browser = await launchTestBrowser();
    const rows: BenchRow[] = [];
    try {
      const page = await browser.context.newPage();
      await page.goto(app.url);
      await page.getByText('Connected via web').waitFor();
      await page.getByLabel('What should the phone do?').fill('Press home thirty times');
      await page.getByLabel('What should the phone do?').press('Enter');
      await page.getByRole('article', { name: 'Done' }).waitFor({ timeout: 120_000 });
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const size = `${viewport.width}x${viewport.height}`;
        const layout = await measureLayout(page);
        const splitter = page.getByRole('separator', { name: /Phone size/ });
        await splitter.press('End');
        const widest = await measureLayout(page);
        await splitter.dblclick();
        rows.push(
          { case: name, metric: `${size}: step card height, compact (median)`, value: median(layout.cardHeights), unit: 'px', goal: 'one line (was ~270 px)' },
          { case: name, metric: `${size}: timeline height, ${STEPS} steps`, value: layout.timelineHeight, unit: 'px', goal: `scrolls in its own area (was ~8,000 px of page)` },
          { case: name, metric: `${size}: page taller than the window`, value: Math.max(0, layout.pageOverflow), unit: 'px', goal: '0' },
          { case: name, metric: `${size}: whole phone in view after ${STEPS} steps`, value: layout.mirrorInView, unit: 'yes=1', goal: '1' },
          { case: name, metric: `${size}: mirror width, default`, value: layout.mirrorWidth, unit: 'px', goal: 'larger than 210 px (1280x800 before)' },
          { case: name, metric: `${size}: mirror width, splitter at its widest`, value: widest.mirrorWidth, unit: 'px' },
          { case: name, metric: `${size}: mirror height, splitter at its widest`, value: widest.mirrorHeight, unit: 'px' },
        );
      }
      await page.setViewportSize(VIEWPORTS[0]!);
      const ascii = 'Typing on the mirror 1234567890';
      const asciiMs = await typingTime(page, harness, ascii);
      const other = 'Zoë café 李雷';
      const otherMs = await typingTime(page, harness, other);
      rows.push(
        { case: name, metric: `typing ${ascii.length} ASCII characters on the mirror -> field`, value: asciiMs, unit: 'ms' },
        { case: name, metric: `typing ${[...other].length} non-ASCII characters (IME) -> field`, value: otherMs, unit: 'ms' },
      );
      await page.close();
      return rows;
    } finally {
      await browser.close();
      await app.close();
      await fake.close();
      await harness.stop();
      await rm(home, { recursive: true, force: true });
    }
  },
};

export default workspaceBench;
