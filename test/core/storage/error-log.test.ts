// The app's log under a flood of failing calls: rotated, so it stays bounded whatever the callers do.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorLogPath, LOG_FILE_BYTES, LOG_FILES, logError } from '../../../src/core/storage/error-log';
import { removeHome, startTestApp, type TestApp } from '../../app/app-fixture';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await app.close();
    await removeHome(app.home);
  }
});

describe('the app log', () => {
  it('Scenario: Thousands of failing calls keep logs/app.log bounded by rotation', async () => {
    const app = await startTestApp({ env: { PATH: process.env.PATH } });
    apps.push(app);
    // Each call fails in the store (a task id with a dot) and logs its stack. An entry's size depends on the stack
    // (the checkout's path, for one), so calls go on until the log has rotated past its oldest entry.
    const file = errorLogPath(app.home, 'app');
    const oldest = `task.0.${'x'.repeat(150)}`;
    const stillKept = async () => {
      // Writes to one log happen in order: this one resolves after every write before it.
      await logError(app.home, 'app', 'checkpoint', new Error('a checkpoint of the test'));
      const names = (await readdir(path.dirname(file))).filter((name) => name.startsWith('app.log'));
      const texts = await Promise.all(names.map((name) => readFile(path.join(path.dirname(file), name), 'utf8')));
      return texts.some((text) => text.includes(oldest));
    };
    let calls = 0;
    do {
      await Promise.all(Array.from({ length: 500 }, (_, i) => app.fail('history.get', { id: `task.${calls + i}.${'x'.repeat(150)}` })));
      calls += 500;
    } while (calls < 60_000 && (await stillKept()));
    // Writes to one log happen in order: this one resolves after every write before it.
    expect(await logError(app.home, 'app', 'last entry', new Error('the newest failure'))).toBe(file);

    const names = (await readdir(path.dirname(file))).filter((name) => name.startsWith('app.log')).sort();
    expect(names).toEqual(['app.log', 'app.log.1', 'app.log.2'].slice(0, LOG_FILES));
    let total = 0;
    for (const name of names) {
      const { size } = await stat(path.join(path.dirname(file), name));
      expect(size, name).toBeLessThanOrEqual(LOG_FILE_BYTES);
      total += size;
    }
    expect(total).toBeLessThanOrEqual(LOG_FILES * LOG_FILE_BYTES);
    // The newest entry is in app.log, and the oldest entries are the ones dropped (well before the calls ran out).
    expect(await readFile(file, 'utf8')).toContain('the newest failure');
    expect(await stillKept()).toBe(false);
    expect(calls).toBeLessThan(60_000);
  }, 120_000);
});
