// The per-phone lock file, with real processes: a live holder refuses, a dead one's lock is replaced.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeviceBusyError, createDeviceLocks, lockFileName, locksFolder } from '../../../src/core/storage/device-lock';

let home: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'amc-lock-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(home, { recursive: true, force: true });
});

const serial = '127.0.0.1:5601';
const lockPath = () => path.join(locksFolder(home), lockFileName(serial));

/** A process that stays alive until the test ends. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}

async function writeLock(content: string): Promise<void> {
  await mkdir(locksFolder(home), { recursive: true });
  await writeFile(lockPath(), content);
}

describe('device lock', () => {
  it('acquire writes the owner to a private lock file and release removes it', async () => {
    const locks = createDeviceLocks(home, { now: () => new Date(2026, 0, 2, 9, 5).getTime() });
    const hold = await locks.acquire(serial, { taskId: 't1', goal: 'Open Notes' });
    expect(JSON.parse(await readFile(lockPath(), 'utf8'))).toEqual({ pid: process.pid, taskId: 't1', goal: 'Open Notes', startedAt: new Date(2026, 0, 2, 9, 5).getTime() });
    if (process.platform !== 'win32') expect((await stat(lockPath())).mode & 0o777).toBe(0o600);
    await hold.release();
    await hold.release();
    expect(await readdir(locksFolder(home))).toEqual([]);
  });

  it('serials become distinct, safe file names', () => {
    const names = ['127.0.0.1:5601', '127.0.0.1_5601', 'adb-R58M12345-abc._adb-tls-connect._tcp', '../../etc/passwd'].map(lockFileName);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]+\.lock$/);
  });

  it('a phone whose lock is held by a live process is refused, naming that task', async () => {
    const pid = liveProcess();
    await writeLock(JSON.stringify({ pid, taskId: 'other', goal: 'Send a message', startedAt: new Date(2026, 0, 2, 14, 7).getTime() }));
    const locks = createDeviceLocks(home);
    const refusal = locks.acquire(serial, { taskId: 't2', goal: 'Open Notes' });
    await expect(refusal).rejects.toThrow(DeviceBusyError);
    await expect(refusal).rejects.toThrow(
      `Phone ${serial} is being driven by another task (goal "Send a message", started 14:07, process ${pid}). Stop that task first.`,
    );
    expect(JSON.parse(await readFile(lockPath(), 'utf8')).taskId).toBe('other');
    // Another phone is free.
    await (await locks.acquire('emulator-5554', { taskId: 't3', goal: 'x' })).release();
  });

  it('a second task in this process is refused while the first holds the phone', async () => {
    const hold = await createDeviceLocks(home).acquire(serial, { taskId: 't1', goal: 'First' });
    await expect(createDeviceLocks(home).acquire(serial, { taskId: 't2', goal: 'Second' })).rejects.toThrow(/goal "First".*process \d+/);
    await hold.release();
    await (await createDeviceLocks(home).acquire(serial, { taskId: 't2', goal: 'Second' })).release();
  });

  it('a lock left by a dead process, or a torn lock file, is stale and replaced', async () => {
    await writeLock(JSON.stringify({ pid: await deadPid(), taskId: 'crashed', goal: 'Old', startedAt: 1 }));
    const locks = createDeviceLocks(home);
    const hold = await locks.acquire(serial, { taskId: 't1', goal: 'New' });
    expect(JSON.parse(await readFile(lockPath(), 'utf8'))).toMatchObject({ pid: process.pid, taskId: 't1' });
    await hold.release();

    await writeLock('{"pid": 12');
    const again = await locks.acquire(serial, { taskId: 't2', goal: 'Newer' });
    expect(JSON.parse(await readFile(lockPath(), 'utf8'))).toMatchObject({ taskId: 't2' });
    await again.release();
    expect(await readdir(locksFolder(home))).toEqual([]);
  });

  it('release removes the lock only while it is still ours', async () => {
    const hold = await createDeviceLocks(home).acquire(serial, { taskId: 't1', goal: 'Mine' });
    // Someone else took the phone over in the meantime (e.g. judged our lock stale).
    const theirs = JSON.stringify({ pid: liveProcess(), taskId: 'theirs', goal: 'Theirs', startedAt: Date.now() });
    await writeLock(theirs);
    await hold.release();
    expect(await readFile(lockPath(), 'utf8')).toBe(theirs);
  });
});
