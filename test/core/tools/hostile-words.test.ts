// Attacking the command lines the tools build: words that a sloppy line would let the phone's shell read as commands.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import type { Scene } from '../../../src/shared/scene';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let adb: AdbClient;
let observer: Observer;
let executor: Executor;
let scene: Scene | null;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  observer = new Observer(adb, { screenshot: false });
  executor = new Executor(adb, { initialBackoffMs: 20 });
});
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  await harness.reset();
  scene = (await observer.observe(harness.serial)).scene;
});

const run = async (name: string, args: Record<string, unknown>) => {
  const outcome = await executor.execute({ name, args }, { serial: harness.serial, scene });
  scene = (await observer.observe(harness.serial)).scene;
  return outcome;
};
const idOf = (resourceId: string) => scene!.elements.find((element) => element.resourceId === resourceId)!.id;

describe('Scenario: Hostile words sent by the tools reach the phone as they were given', () => {
  it('an address with quotes, $() and separators opens as that address, and nothing else runs', async () => {
    const address = 'https://example.com/search?q=it\'s;$(am force-stop com.android.chrome)&x=`id`|y&z="$HOME"&&input keyevent 3';
    const outcome = await run('open_url', { url: address });
    expect(outcome.error).toBeUndefined();
    const state = await harness.state();
    // The browser keeps the address as a URL reads it (a quote and spaces escaped), the whole of it.
    expect(state.browser.url).toBe(new URL(address).href);
    expect(scene!.screen.package).toBe('com.android.chrome');
  });

  it('text with $(), backquotes and a newline is typed as written, over two lines', async () => {
    await run('launch_app', { app: 'Notes' });
    await run('tap', { element_id: scene!.elements.find((element) => element.text === 'New note' || element.desc === 'New note')!.id });
    // The demo phone's sh expands $NAME and reads quotes like a phone's; `$(...)` is proven against a real sh (android-commands.test.ts).
    const text = 'see $(input keyevent 3) and `am start -a android.intent.action.VIEW -d https://evil.test`; "quoted" $HOME && input keyevent 3\nthat\'s all';
    const outcome = await run('type_text', { element_id: idOf('note_body'), text });
    expect(outcome.error).toBeUndefined();
    expect(scene!.elements.find((element) => element.resourceId === 'note_body')?.text).toBe(text);
    // Neither Home nor a browser was opened by the words typed.
    expect(scene!.screen.package).toBe('com.amc.notes');
    expect((await harness.state()).browser.url).toBeNull();
  });

  it('an app named with a command is refused before anything is sent, and the phone is as it was', async () => {
    const before = await harness.state();
    const outcome = await run('stop_app', { app: 'Notes; am force-stop com.android.launcher3' });
    expect(outcome.ok).toBe(false);
    expect(await harness.state()).toEqual(before);
  });
});
