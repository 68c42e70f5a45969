import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startVirtualDevice, type VirtualDevice } from '../../packages/demo-phone/src/index';
import { callControlApi } from '../../packages/demo-phone/src/control-client';
import { launchTestBrowser } from '../support/browser';

interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

describe('virtual device control API', () => {
  let device: VirtualDevice;

  const call = async <T = Record<string, unknown>>(path: string, method = 'GET', body?: unknown): Promise<Reply<T>> => {
    const response = await fetch(`${device.controlUrl}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    device = await startVirtualDevice();
  });

  afterAll(async () => {
    await device?.close();
  });

  beforeEach(async () => {
    await call('/reset', 'POST');
  });

  it('listens on loopback only', () => {
    expect(new URL(device.controlUrl).hostname).toBe('127.0.0.1');
    expect(device.adbAddress).toBe(`127.0.0.1:${device.adbPort}`);
  });

  it('Scenario: GET /state describes the phone', async () => {
    const { status, body } = await call('/state');
    expect(status).toBe(200);
    expect(typeof body.foreground).toBe('string');
    expect(body.settings).toMatchObject({ wifi: expect.any(Boolean), bluetooth: expect.any(Boolean), darkTheme: expect.any(Boolean) });
    expect(Array.isArray(body.contacts)).toBe(true);
    expect(Array.isArray(body.alarms)).toBe(true);
    expect(Array.isArray(body.notes)).toBe(true);
    expect(body.messages).toMatchObject({ sent: expect.any(Array) });
  });

  it('Scenario: POST /reset applies a seed state', async () => {
    const seeded = await call('/reset', 'POST', { settings: { wifi: false, darkTheme: true }, contacts: [{ name: 'Ada', phone: '555-0100' }] });
    expect(seeded.status).toBe(200);
    expect(seeded.body.settings).toMatchObject({ wifi: false, darkTheme: true });
    const state = await call('/state');
    expect(state.body.contacts).toEqual([expect.objectContaining({ name: 'Ada', phone: '555-0100' })]);

    const plain = await call('/reset', 'POST');
    expect(plain.body.contacts).not.toEqual(state.body.contacts);
  });

  it('Scenario: A bad request body gets a 400 with a clear message', async () => {
    const notJson = await call<{ error: string }>('/faults', 'POST', '{kind:');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/not valid JSON/);

    const badKind = await call<{ error: string }>('/faults', 'POST', { kind: 'meteor-strike' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error).toContain('kind');
    expect(badKind.body.error).toContain('connection-drop');

    const badSeed = await call<{ error: string }>('/reset', 'POST', { settings: { wifi: 'maybe' } });
    expect(badSeed.status).toBe(400);
    expect(badSeed.body.error).toContain('settings.wifi');

    const badProfile = await call<{ error: string }>('/profile', 'POST', { profile: 'glacial' });
    expect(badProfile.status).toBe(400);
    expect(badProfile.body.error).toContain('profile');

    // Nothing was lost: the device still answers.
    expect((await call('/state')).status).toBe(200);
  });

  it('Scenario: Faults are listed after injection and cleared by a reset', async () => {
    for (const kind of ['connection-drop', 'hang', 'idle-state-error', 'corrupt-screencap', 'popup-dialog', 'screen-off']) {
      const injected = await call('/faults', 'POST', { kind });
      expect(injected.status).toBe(200);
    }
    const listed = await call<{ faults: Array<{ kind: string }> }>('/faults');
    expect(listed.body.faults.map((f) => f.kind).sort()).toEqual(
      ['connection-drop', 'corrupt-screencap', 'hang', 'idle-state-error', 'popup-dialog', 'screen-off'],
    );
    expect(device.adb.connectionDropArmed).toBe(true);

    await call('/reset', 'POST');
    expect((await call<{ faults: unknown[] }>('/faults')).body.faults).toEqual([]);
    expect(device.adb.connectionDropArmed).toBe(false);
  });

  it('Scenario: The latency profile can be switched at run time', async () => {
    expect((await call('/profile')).body).toEqual({ profile: 'instant' });
    const switched = await call('/profile', 'POST', { profile: 'realistic' });
    expect(switched).toEqual({ status: 200, body: { profile: 'realistic' } });
    expect((await call('/state')).body.profile).toBe('realistic');
    await call('/profile', 'POST', { profile: 'instant' });
    expect((await call('/state')).body.profile).toBe('instant');
  });

  it('unknown endpoints get 404 and wrong methods 405, both in JSON', async () => {
    const missing = await call<{ error: string }>('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('/nope');
    const wrongMethod = await call<{ error: string }>('/state', 'DELETE');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error).toContain('GET');
    const index = await call<{ routes: string[] }>('/');
    expect(index.body.routes).toEqual(expect.arrayContaining(['GET /state', 'POST /reset', 'POST /faults', 'GET /faults', 'POST /profile']));
  });
});

describe('virtual device control API guards', () => {
  let device: VirtualDevice;

  beforeAll(async () => {
    device = await startVirtualDevice();
  });

  afterAll(async () => {
    await device?.close();
  });

  /** A raw request with the Host and Origin a browser or a rebinding page would send. */
  function rawPost(path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${device.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on('error', reject);
      request.end(JSON.stringify(body));
    });
  }

  it('Scenario: A web page cannot drive the demo phone', async () => {
    await callControlApi(device.controlUrl, 'POST /reset', { settings: { wifi: true } });
    // Another loopback page, in a real browser: a `no-cors` POST needs no preflight and used to reset the phone.
    const page = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const browser = await launchTestBrowser();
    try {
      const tab = await browser.context.newPage();
      await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
      const sent = await tab.evaluate(async (url) => {
        await fetch(`${url}/reset`, { method: 'POST', mode: 'no-cors', body: JSON.stringify({ settings: { wifi: false } }) });
        await fetch(`${url}/faults`, { method: 'POST', mode: 'no-cors', body: JSON.stringify({ kind: 'screen-off' }) });
        return true;
      }, device.controlUrl);
      expect(sent).toBe(true);
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    }
    expect((await callControlApi(device.controlUrl, 'GET /state')).settings.wifi).toBe(true);
    expect((await callControlApi(device.controlUrl, 'GET /faults')).faults).toEqual([]);

    // The same refusals without a browser: any Origin, and a Host that is not this server (DNS rebinding).
    const port = device.controlPort;
    const foreign = await rawPost('/reset', { origin: 'http://127.0.0.1:1' }, { settings: { wifi: false } });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text)).toEqual({ error: expect.stringContaining('Forbidden origin') });
    const rebound = await rawPost('/reset', { host: `attacker.example:${port}` }, { settings: { wifi: false } });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text)).toEqual({ error: expect.stringContaining('Forbidden host') });
    expect((await callControlApi(device.controlUrl, 'GET /state')).settings.wifi).toBe(true);

    // Clients without an Origin (tests, benchmarks, `amc`) and both loopback spellings keep working.
    expect((await rawPost('/reset', { host: `localhost:${port}` }, { settings: { wifi: false } })).status).toBe(200);
    expect((await callControlApi(device.controlUrl, 'GET /state')).settings.wifi).toBe(false);
  }, 60_000);
});
