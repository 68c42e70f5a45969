// A settling observation on the realistic demo phone (dump ~1.5 s, screencap ~0.4 s) through the real adb server: a
// dialog that shows while the layout is read stops that read and starts another, and what comes back is the screen as
// it ended, never the one before it; a stopped task stops a settling read at once. What the phone shows is read back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdbClient } from '../../../src/core/device/adb-client';
import { isAbortError } from '../../../src/core/device/errors';
import { Observer } from '../../../src/core/perception/observer';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let adb: AdbClient;

beforeAll(async () => {
  harness = await startAdbHarness({ profile: 'realistic' });
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});
beforeEach(async () => {
  await harness.reset({});
});

const labels = (scene: { elements: { text?: string; desc?: string }[] } | null) => (scene?.elements ?? []).map((element) => element.text ?? element.desc);
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a settled read', { timeout: 60_000 }, () => {
  it('Scenario: A dialog that shows while the layout is read is in the settled Scene, and its fingerprint is the screen now', async () => {
    const observer = new Observer(adb, { screenshot: false });
    // A first read teaches the Observer this phone's read times, as a flow's first turn does.
    const first = await observer.observe(harness.serial, { settle: true });
    expect(first.settled).toBe(true);
    expect(labels(first.scene)).not.toContain('Battery is low');
    for (const showAfterMs of [150, 700, 1300]) {
      await harness.reset({});
      const [seen] = await Promise.all([
        observer.observe(harness.serial, { settle: true }),
        later(showAfterMs).then(() => harness.control('/faults', { body: { kind: 'popup-dialog' } })),
      ]);
      expect((await harness.state()).dialog, `dialog shown ${showAfterMs} ms into the read`).not.toBeNull();
      // The read that began before the dialog is never what comes back: the Scene shows the dialog.
      expect(labels(seen.scene), `dialog shown ${showAfterMs} ms into the read`).toContain('Battery is low');
      expect(seen.settled).toBe(true);
      expect(seen.fingerprint).toBe(await observer.screenFingerprint(harness.serial));
    }
  });

  it('Scenario: Stopping a settling read ends it at once, and the next read of the phone works', async () => {
    const observer = new Observer(adb, { screenshot: false });
    const controller = new AbortController();
    const reading = observer.observe(harness.serial, { settle: true, signal: controller.signal });
    await later(600);
    controller.abort(new DOMException('stopped', 'AbortError'));
    const error = await reading.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(isAbortError(error)).toBe(true);
    const next = await observer.observe(harness.serial, { settle: true });
    expect(next.settled).toBe(true);
    expect(labels(next.scene)).toContain('Settings');
    expect((await harness.state()).foreground).toBe('com.android.launcher3');
  });
});
