// What a browser test file starts before its tests and stops after them: the app behind the web host (with its own
// adb server and demo phone, test/e2e/ui-support), headless Chromium, and, for files that script a model, the fake
// Anthropic API whose policy each test may swap.
import { afterAll, beforeAll } from 'vitest';
import { startAnthropicFake, type AnthropicFake, type FakePolicy } from '../fakes/index';
import { startUiHost, startVideoUiHost, type UiHost } from '../e2e/ui-support';
import { launchTestBrowser, type TestBrowser } from './browser';

/** Starting the app, its adb server and a browser takes a while on a loaded machine. */
const START_TIMEOUT_MS = 90_000;

export interface UiFixture {
  readonly host: UiHost;
  readonly browser: TestBrowser;
}

interface UiFixtureOptions {
  /** The app's environment; a function when it depends on something started first (a fake's address). */
  env?: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv);
  /** The video mirror's host (a local scrcpy-server) instead of the screenshot one. */
  video?: boolean;
  /** False when the file launches its own browsers (at other window sizes). */
  browser?: boolean;
  /** The browser's language (e.g. `zh-CN`); Chromium's own when not given. */
  locale?: string;
}

/** Reads a part started in beforeAll; a test that runs without it (its start failed) fails with this. */
function started<T>(part: T | undefined, name: string): T {
  if (part === undefined) throw new Error(`the ${name} did not start (see the beforeAll failure)`);
  return part;
}

/** The app behind the web host and a browser for this file's tests, stopped after them even if a start failed. */
export function useUiFixture(options: UiFixtureOptions = {}): UiFixture {
  let host: UiHost | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    const starts = await Promise.allSettled([
      (options.video ? startVideoUiHost() : startUiHost(env)).then((running) => (host = running)),
      options.browser === false ? null : launchTestBrowser(undefined, options.locale).then((launched) => (browser = launched)),
    ]);
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed) throw failed.reason;
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });
  return {
    get host() {
      return started(host, 'app');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

export interface ModelFixture {
  readonly fake: AnthropicFake;
  /** How the fake model answers each turn; a test sets its own. */
  policy: FakePolicy;
}

/** The fake Anthropic API for this file, answering with `policy` until a test sets another. Start it before the app. */
export function useAnthropicFake(initial: FakePolicy): ModelFixture {
  let fake: AnthropicFake | undefined;
  const model = {
    policy: initial,
    get fake() {
      return started(fake, 'fake Anthropic API');
    },
  };
  beforeAll(async () => {
    fake = await startAnthropicFake({ policy: (turn) => model.policy(turn) });
  });
  afterAll(async () => {
    await fake?.close();
  });
  return model;
}
