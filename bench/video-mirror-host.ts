// The app's host for the video-mirror benchmark, in a process of its own so its CPU is measured alone (not the
// benchmark's browser driver). Environment: the app's (AMC_*, HOME, the adb server's port); argv: renderer dir and
// data folder. Prints `{"url": ...}` once serving; each stdin line `observe <serial> <count>` runs that many agent
// observations here, where the mirror runs, and prints `{"observeMs": [...]}`. Ends when stdin closes.
import { createInterface } from 'node:readline';
import { startWebApp } from '../src/app/start-web-app';
import { AdbClient } from '../src/core/device/adb-client';
import { Observer } from '../src/core/perception/observer';

const [rendererDir, home] = process.argv.slice(2);
const app = await startWebApp({ rendererDir, home, env: process.env, heartbeatMs: 60_000 });
const observer = new Observer(await AdbClient.create({ env: process.env }), { screenshot: false });
process.stdout.write(`${JSON.stringify({ url: app.url })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, serial, count] = line.trim().split(' ');
  if (command !== 'observe' || !serial) continue;
  const observeMs: number[] = [];
  for (let index = 0; index < Number(count); index++) {
    const started = performance.now();
    await observer.observe(serial);
    observeMs.push(performance.now() - started);
  }
  process.stdout.write(`${JSON.stringify({ observeMs })}\n`);
}
await app.close();
