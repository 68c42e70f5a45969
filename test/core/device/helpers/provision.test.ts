import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPERS, SCRCPY_SERVER, type HelperFacts } from '../../../../src/core/device/helpers/catalog';
import { provisionHelper, sha256, type ProvisionOptions } from '../../../../src/core/device/helpers/provision';
import { shippedHelpersDir } from '../../../../src/app/paths';

/** The fix a failed download gives: the release's address and the Settings entry that takes the file. */
const DOWNLOAD_IT_YOURSELF = `Download scrcpy-server 3.3.3 (${SCRCPY_SERVER.downloadUrl}) and set "scrcpy-server 3.3.3 file" in Settings \u2192 Phone helpers.`;

const release = Buffer.from('the official release file\n');
const helper: HelperFacts = { ...SCRCPY_SERVER, sha256: sha256(release), installedAt: () => [] };

let dir: string;
let server: Server;
let base: string;
let served: Buffer = release;
let requests = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-helpers-'));
  server = createServer((request, response) => {
    requests += 1;
    if (request.url === '/missing') response.writeHead(404).end('not here');
    else response.end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const options = (dataDir: string, extra: Partial<ProvisionOptions> = {}): ProvisionOptions => ({
  configuredPath: '',
  dataDir,
  shippedDir: null,
  allowDownload: true,
  installedPaths: [],
  downloadUrl: `${base}/release`,
  ...extra,
});

/** A port that refuses connections: a server bound and closed again. */
async function refusingUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/release`;
}

describe('helper provisioning', () => {
  it('each download address names the pinned release, never a moving branch', () => {
    // yadb has no release assets: its file is fetched at the tag, which holds the file whose sum is pinned.
    for (const facts of Object.values(HELPERS)) {
      expect(facts.downloadUrl).toMatch(/^https:\/\//);
      expect(facts.downloadUrl).toContain(`/v${facts.version}/`);
      expect(facts.downloadUrl).not.toMatch(/\/(master|main|develop)\//);
    }
  });

  it('uses the file named in Settings first, as given', async () => {
    const file = path.join(dir, 'my-server');
    await writeFile(file, 'a custom build');
    const result = await provisionHelper(helper, options(path.join(dir, 'a'), { configuredPath: file, installedPaths: [file] }));
    expect(result).toMatchObject({ available: true, origin: 'settings', file });
    const missing = await provisionHelper(helper, options(path.join(dir, 'a'), { configuredPath: path.join(dir, 'nope') }));
    expect(missing).toMatchObject({
      available: false,
      reason: expect.stringMatching(/path in Settings .*nope\) cannot be read/),
      fix: 'Check "scrcpy-server 3.3.3 file" in Settings \u2192 Phone helpers.',
    });
  });

  it('Scenario: The copy shipped with the app is used with no network, and a changed one is refused', async () => {
    const shippedDir = path.join(dir, 'shipped');
    await mkdir(shippedDir, { recursive: true });
    await writeFile(path.join(shippedDir, helper.fileName), release);
    const before = requests;
    // Downloads allowed, but the shipped copy comes first: nothing is fetched.
    const found = await provisionHelper(helper, options(path.join(dir, 'shipped-data'), { shippedDir }));
    expect(found).toMatchObject({ available: true, origin: 'shipped', file: path.join(shippedDir, helper.fileName) });
    expect(requests - before).toBe(0);
    // A shipped file changed after the build is not used: it is named, and the pinned release is fetched instead.
    await writeFile(path.join(shippedDir, helper.fileName), 'a file changed after the build');
    const refused = await provisionHelper(helper, options(path.join(dir, 'shipped-data-2'), { shippedDir, allowDownload: false }));
    expect(refused).toMatchObject({
      available: false,
      reason: `scrcpy-server 3.3.3 is not installed (${path.join(shippedDir, helper.fileName)} is not scrcpy-server 3.3.3) and downloads are off in Settings`,
    });
    const downloaded = await provisionHelper(helper, options(path.join(dir, 'shipped-data-3'), { shippedDir }));
    expect(downloaded).toMatchObject({ available: true, origin: 'downloaded' });
    expect(requests - before).toBe(1);
  });

  it('Scenario: The pinned helpers ship with the package, verified by their SHA-256', async () => {
    // Put there by the build (scripts/fetch-phone-helpers.mjs) from the npm package that ships the genuine files.
    for (const facts of Object.values(HELPERS)) {
      const bytes = await readFile(path.join(shippedHelpersDir({})!, facts.fileName));
      expect(sha256(bytes), facts.name).toBe(facts.sha256);
    }
    const server = await readFile(path.join(shippedHelpersDir({})!, SCRCPY_SERVER.fileName));
    expect(server.length).toBe(90_164);
    expect(server.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    // The licences travel with them: Apache-2.0 for scrcpy-server, LGPL-3.0 with a source note for yadb.
    const notice = await readFile(path.join(shippedHelpersDir({})!, 'NOTICE.md'), 'utf8');
    expect(notice).toMatch(/scrcpy-server 3\.3\.3[\s\S]*Apache License, Version 2\.0/);
    expect(notice).toMatch(/yadb 1\.1\.1[\s\S]*LGPL-3\.0[\s\S]*github\.com\/ysbing\/YADB/);
    expect(await readFile(path.join(shippedHelpersDir({})!, 'LICENSE-scrcpy-server.txt'), 'utf8')).toContain('Apache License');
    expect(await readFile(path.join(shippedHelpersDir({})!, 'LICENSE-yadb.txt'), 'utf8')).toContain('GNU LESSER GENERAL PUBLIC LICENSE');
  });

  it('uses an installation of the pinned version and names one of another version', async () => {
    const other = path.join(dir, 'other-version');
    const pinned = path.join(dir, 'pinned-version');
    await writeFile(other, 'scrcpy 1.25');
    await writeFile(pinned, release);
    const found = await provisionHelper(helper, options(path.join(dir, 'b'), { installedPaths: [other, pinned] }));
    expect(found).toMatchObject({ available: true, origin: 'installed', file: pinned });
    const refused = await provisionHelper(helper, options(path.join(dir, 'b'), { installedPaths: [other], allowDownload: false }));
    expect(refused).toMatchObject({
      available: false,
      reason: `scrcpy-server 3.3.3 is not installed (${other} is not scrcpy-server 3.3.3) and downloads are off in Settings`,
      fix: 'In Settings \u2192 Phone helpers, turn on "Download missing helpers" or set "scrcpy-server 3.3.3 file".',
    });
  });

  it('downloads the release once, verified against its pinned SHA-256, and then uses the cached copy', async () => {
    const dataDir = path.join(dir, 'c');
    const before = requests;
    const first = await provisionHelper(helper, options(dataDir));
    expect(first).toMatchObject({ available: true, origin: 'downloaded' });
    expect(await readFile(path.join(dataDir, 'helpers', helper.fileName))).toEqual(release);
    const second = await provisionHelper(helper, options(dataDir));
    expect(second).toMatchObject({ available: true, origin: 'cached' });
    expect(requests - before).toBe(1);
  });

  it('a refused download (no network) is a one-line reason, and nothing is cached', async () => {
    const dataDir = path.join(dir, 'd');
    const result = await provisionHelper(helper, options(dataDir, { downloadUrl: await refusingUrl() }));
    expect(result).toMatchObject({ available: false, reason: 'the scrcpy-server 3.3.3 download failed (ECONNREFUSED)', fix: DOWNLOAD_IT_YOURSELF });
    const notFound = await provisionHelper(helper, options(dataDir, { downloadUrl: `${base}/missing` }));
    expect(notFound).toMatchObject({ available: false, reason: 'the scrcpy-server 3.3.3 download was refused (HTTP 404)', fix: DOWNLOAD_IT_YOURSELF });
    await expect(readFile(path.join(dataDir, 'helpers', helper.fileName))).rejects.toThrow();
  });

  it('a download with a wrong checksum is rejected and not cached; a tampered cached copy is not used', async () => {
    const dataDir = path.join(dir, 'e');
    served = Buffer.from('a file someone swapped in\n');
    try {
      const result = await provisionHelper(helper, options(dataDir));
      expect(result).toMatchObject({
        available: false,
        reason: 'the downloaded scrcpy-server 3.3.3 file does not match its pinned SHA-256 and was discarded',
        fix: DOWNLOAD_IT_YOURSELF,
      });
      await expect(readFile(path.join(dataDir, 'helpers', helper.fileName))).rejects.toThrow();
      await mkdir(path.join(dataDir, 'helpers'), { recursive: true });
      await writeFile(path.join(dataDir, 'helpers', helper.fileName), served);
      const again = await provisionHelper(helper, options(dataDir, { allowDownload: false }));
      expect(again).toMatchObject({ available: false });
    } finally {
      served = release;
    }
  });
});
