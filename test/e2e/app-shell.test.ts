import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebApp, type RunningWebApp } from '../../src/app/start-web-app';
import { launchTestBrowser, type TestBrowser } from '../support/browser';
import { requireBuiltRenderer } from '../support/build';

let app: RunningWebApp;
let browser: TestBrowser;
let home: string;

beforeAll(async () => {
  // The page asks for the device list at load: with no adb on PATH and a port nothing listens on, the app reports
  // that instead of starting an adb server on the machine's default port. Its data folder is a fresh one.
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-shell-'));
  app = await startWebApp({ rendererDir: requireBuiltRenderer(), heartbeatMs: 200, home, env: { PATH: '', ANDROID_ADB_SERVER_PORT: '1' } });
  browser = await launchTestBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await rm(home, { recursive: true, force: true });
});

/** Opens a raw WebSocket and resolves with the HTTP status the upgrade got (101 when accepted). */
function upgradeStatus(url: string, origin?: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

function openSocket(): Promise<WebSocket> {
  const ws = new WebSocket(`${app.origin.replace('http', 'ws')}/ws?token=${app.token}`, { origin: app.origin });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextResult(ws: WebSocket): Promise<{ id: number | null; result: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString());
      if (message.type !== 'result') return;
      ws.off('message', onMessage);
      resolve(message);
    };
    ws.on('message', onMessage);
  });
}

describe('app shell over the web host', () => {
  it('Scenario: The shell renders and the round trip works in a browser', async () => {
    const page = await browser.context.newPage();
    await page.goto(app.url);
    await expect(page.getByRole('heading', { name: 'Agentic Mobile Control' }).isVisible()).resolves.toBe(true);
    await page.getByTestId('app-version').waitFor();
    expect(await page.getByTestId('app-version').textContent()).toMatch(/^v\d+\.\d+\.\d+/);
    await page.getByText('Connected via web').waitFor();
    // Heartbeats keep arriving: the number shown grows.
    const first = Number((await page.getByTestId('heartbeat').textContent())?.replace(/\D/g, ''));
    await page.waitForFunction(
      (seen) => Number(document.querySelector('[data-testid="heartbeat"]')?.textContent?.replace(/\D/g, '')) > seen,
      first,
    );
    for (const region of ['Devices', 'Timeline']) {
      expect(await page.getByRole('heading', { name: region }).isVisible()).toBe(true);
    }
    expect(await page.getByLabel('What should the phone do?').isVisible()).toBe(true);
    await page.screenshot({ path: 'test-artifacts/app-shell.png' });
    await page.getByRole('banner').getByRole('button', { name: 'Open settings' }).click();
    expect(await page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(true);
    await page.close();
  });

  it('Scenario: WebSocket without the token is refused', async () => {
    const base = `${app.origin.replace('http', 'ws')}/ws`;
    expect(await upgradeStatus(base, app.origin)).toBe(401);
    expect(await upgradeStatus(`${base}?token=wrong-${app.token}`, app.origin)).toBe(401);
    expect(await upgradeStatus(`${base}?token=${app.token}`, app.origin)).toBe(101);
  });

  it('Scenario: WebSocket from a foreign origin is refused', async () => {
    const url = `${app.origin.replace('http', 'ws')}/ws?token=${app.token}`;
    expect(await upgradeStatus(url, 'http://evil.example')).toBe(403);
    expect(await upgradeStatus(url)).toBe(403);
  });

  it('Scenario: A request with an invalid payload gets a validation error and the app keeps serving', async () => {
    const ws = await openSocket();
    const invalid = nextResult(ws);
    ws.send(JSON.stringify({ id: 1, method: 'app.ping', input: { nonce: 42 } }));
    const answer = await invalid;
    expect(answer.id).toBe(1);
    expect(answer.result.ok).toBe(false);
    expect(answer.result.error?.code).toBe('invalid_input');
    expect(answer.result.error?.message).toContain('nonce');

    const garbage = nextResult(ws);
    ws.send('{not json');
    expect((await garbage).result.error?.code).toBe('invalid_input');

    const valid = nextResult(ws);
    ws.send(JSON.stringify({ id: 2, method: 'app.ping', input: { nonce: 'still-here' } }));
    expect((await valid).result).toMatchObject({ ok: true, value: { nonce: 'still-here' } });
    ws.close();
  });

  it('Scenario: A foreign Host header is refused', async () => {
    // fetch() may not set Host, so this request goes through node:http, as a DNS-rebinding page's would arrive.
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${app.origin}/`, { headers: { host: 'attacker.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(403);
    const ok = await fetch(`${app.origin}/`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('Scenario: Static files never escape the renderer folder', async () => {
    const response = await fetch(`${app.origin}/..%2f..%2fpackage.json`);
    const body = await response.text();
    expect(body).not.toContain('"devDependencies"');
  });

  it('Scenario: The page runs under its content security policy', async () => {
    // The built page carries the policy itself, so the Electron window (file://, no headers) enforces it too.
    const html = readFileSync(path.join(requireBuiltRenderer(), 'index.html'), 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src &#39;self&#39;/);
    const page = await browser.context.newPage();
    await page.goto(app.url);
    const outcome = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) => resolve(`blocked ${event.violatedDirective}`));
          const script = document.createElement('script');
          script.textContent = "window.__injected = 'ran'";
          document.body.append(script);
          setTimeout(() => resolve(String((window as unknown as { __injected?: string }).__injected)), 1000);
        }),
    );
    expect(outcome).toMatch(/^blocked script-src/);
    await page.close();
  });
});
