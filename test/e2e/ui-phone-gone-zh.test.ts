// A phone that left just before a run, in a Chinese window in real Chromium: a device group names the phone, the phone
// is disconnected and stopped, and the goal is launched on the group. The phone's row says why in Chinese, from the
// refusal's code; the phone that stayed connected shows that nothing ran on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualDevice, type VirtualDevice } from '@amc/demo-phone';
import { useUiFixture } from '../support/ui-fixture';
import { openConnectedPage, saveScreenshot } from './ui-support';
import { latinSentences } from '../support/latin-sentences';

let leaving: VirtualDevice | undefined;
let leavingSerial = '';
beforeAll(async () => {
  leaving = await startVirtualDevice({ port: 0, controlPort: 0 });
  leavingSerial = leaving.adbAddress;
});
afterAll(async () => {
  await leaving?.close();
});

const ui = useUiFixture({ locale: 'zh-CN', env: () => ({ AMC_DEVICE_GROUPS: `leaving: ${leavingSerial}` }) });

describe('a phone that left, in a Chinese window', { timeout: 120_000 }, () => {
  it("Scenario: A run started on a phone that just left is refused in the reader's language", async () => {
    await ui.host.harness.reset();
    const { page, errors } = await openConnectedPage(ui);
    // The phone is listed, then leaves: disconnected from adb and switched off.
    await ui.host.harness.adb(['connect', leavingSerial]);
    const row = page.locator(`[data-testid="device-row"][data-serial="${leavingSerial}"]`);
    await row.waitFor();
    await ui.host.harness.adb(['disconnect', leavingSerial]);
    await leaving!.close();
    leaving = undefined;
    await row.waitFor({ state: 'detached' });

    await page.getByLabel('要手机做什么？').fill('打开笔记');
    await page.getByRole('tab', { name: '多部手机' }).click();
    const panel = page.getByTestId('launch-panel');
    await panel.getByLabel('设备组').selectOption('leaving');
    await panel.getByRole('button', { name: '在 1 部手机上运行' }).click();
    const reason = panel.locator(`[data-testid="launch-row"][data-serial="${leavingSerial}"] .launch-reason`);
    await reason.waitFor();
    const words = (await reason.innerText()).trim();
    expect(words).toBe(`手机“${leavingSerial}”没有连接。请连接它，或启动演示手机。`);
    expect(latinSentences(words), words).toEqual([]);
    await saveScreenshot(page, 'zh-CN-launch-phone-gone-1280x800');

    expect((await ui.host.harness.state()).foreground).toBe('com.android.launcher3');
    expect(errors).toEqual([]);
    await page.close();
  });
});
