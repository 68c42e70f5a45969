import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { say, saidList, wordCode, type Said, type SaidCode, type SaidValues, type Saying } from '../../shared/said';
import { isProcessAlive } from './file-lock';
import { writeSyncedSibling } from './synced-file';

/** An MCP agent that holds a phone between its actions (no task of the app's runs then). */
export interface AgentHolder {
  /** The MCP client's own name (e.g. "claude-code"). */
  client: string;
  sessionStartedAt: number;
  /** After this long without a request from the agent, its session ends and the phone is free (null: when it disconnects). */
  idleTimeoutMs: number | null;
}

/** What a lock file records about the task that holds the phone. */
export interface DeviceLockOwner {
  pid: number;
  taskId: string;
  goal: string;
  startedAt: number;
  /** Present when the holder is an MCP agent rather than a task. */
  agent?: AgentHolder;
}

export interface DeviceLockInfo {
  taskId: string;
  goal: string;
  agent?: AgentHolder;
}

export interface DeviceLockHold {
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): Promise<void>;
  /** False once the lock file is no longer ours (e.g. the person took an agent's phone back with Stop). */
  stillHeld(): Promise<boolean>;
}

export interface DeviceLocks {
  /** Takes the phone for one task, or throws DeviceBusyError naming the task that holds it. */
  acquire(serial: string, info: DeviceLockInfo): Promise<DeviceLockHold>;
  /** Who holds the phone now (a live holder in any process), or null when it is free. */
  holder(serial: string): Promise<DeviceLockOwner | null>;
  /**
   * Takes the phone back from an MCP agent (the person's Stop): its lock file is removed, and the agent is told
   * at its next action. A task's lock is left alone (its own Stop ends it). Answers the agent that held it.
   */
  revokeAgent(serial: string): Promise<DeviceLockOwner | null>;
}

/** Another live task (in this or another process) drives the phone. */
export class DeviceBusyError extends Error {
  override name = 'DeviceBusyError';
  /** The refusal's code, for a reader in another language. */
  readonly said: Said;
  constructor(refusal: Saying) {
    super(refusal.text);
    this.said = refusal.said;
  }
}

/** Lock files this process holds now: a file with our pid that is not here was left by an earlier task of ours. */
const heldHere = new Set<string>();

/** Serials hold ':' and '.' (and adb allows more): keep the safe characters readable, add a hash so distinct serials never collide. */
export function lockFileName(serial: string): string {
  const readable = serial.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const hash = createHash('sha256').update(serial).digest('hex').slice(0, 12);
  return `${readable}-${hash}.lock`;
}

export function locksFolder(home: string): string {
  return path.join(home, 'storage', 'locks');
}

function parseOwner(text: string): DeviceLockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<DeviceLockOwner>;
    const valid =
      Number.isInteger(value.pid) && (value.pid as number) > 0 && typeof value.taskId === 'string' && typeof value.goal === 'string' && typeof value.startedAt === 'number';
    const agent = value.agent;
    const validAgent = agent === undefined || (typeof agent.client === 'string' && typeof agent.sessionStartedAt === 'number' && (agent.idleTimeoutMs === null || typeof agent.idleTimeoutMs === 'number'));
    return valid && validAgent ? (value as DeviceLockOwner) : null;
  } catch {
    return null;
  }
}

/** The owner text, or null when there is no lock file. */
async function readLock(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const clock = (at: number) => {
  const time = new Date(at);
  return `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`;
};

type Coded = { code: SaidCode; values: SaidValues };

/** The holder as it is: "an MCP agent (claude-code, session started 07:30)" or "another task (goal "…", started 07:30)". */
function holderSaid(owner: DeviceLockOwner): Coded {
  if (owner.agent) return { code: 'deviceLock.holderAgent', values: { client: owner.agent.client, at: clock(owner.agent.sessionStartedAt), pid: owner.pid } };
  return { code: 'deviceLock.holderTask', values: { goal: owner.goal, at: clock(owner.startedAt), pid: owner.pid } };
}

/** How the person frees the phone from this holder. */
function freeingSaid(owner: DeviceLockOwner): Coded {
  if (!owner.agent) return { code: 'deviceLock.freeTask', values: {} };
  const { idleTimeoutMs } = owner.agent;
  return idleTimeoutMs === null ? { code: 'deviceLock.freeAgent', values: {} } : { code: 'deviceLock.freeAgentIdle', values: { seconds: Math.round(idleTimeoutMs / 1000) } };
}

/** The holder in English words (doctor, MCP). */
export const holderWords = (owner: DeviceLockOwner): string => wordOf(holderSaid(owner));
/** How to free the phone, in English words (doctor, MCP). */
export const freeingWords = (owner: DeviceLockOwner): string => wordOf(freeingSaid(owner));
const wordOf = ({ code, values }: Coded) => wordCode(code, values);

function busySaying(serial: string, owner: DeviceLockOwner): Saying {
  return say('deviceLock.busy', { serial, holderSaid: saidList([holderSaid(owner)]), freeingSaid: saidList([freeingSaid(owner)]) });
}

/** Creates the lock file with its whole content at once: written aside, then linked into place (fails if it exists). */
async function createLock(file: string, text: string): Promise<boolean> {
  const aside = await writeSyncedSibling(file, text, 0o600);
  try {
    await link(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(aside, { force: true });
  }
}

/**
 * Moves a stale lock out of the way, unless it changed since it was judged stale (another process took it
 * over in between): then that newer lock is put back.
 */
async function removeStale(file: string, judged: string): Promise<void> {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await rm(aside, { force: true });
}

/**
 * One task per phone across processes (the app, `amc run`, `amc serve`): a lock file per serial in
 * `<home>/storage/locks/`. A lock whose process is gone, or whose file is unreadable, is stale and replaced.
 */
export function createDeviceLocks(home: string, options: { now?: () => number } = {}): DeviceLocks {
  const now = options.now ?? Date.now;
  const folder = locksFolder(home);
  const fileOf = (serial: string) => path.join(folder, lockFileName(serial));
  /** The live holder's lock text and owner, or null when the phone is free (or its lock is stale). */
  const liveLock = async (file: string): Promise<{ text: string; owner: DeviceLockOwner } | null> => {
    const text = await readLock(file);
    const owner = text === null ? null : parseOwner(text);
    if (!text || !owner || !isProcessAlive(owner.pid)) return null;
    if (owner.pid === process.pid && !heldHere.has(file)) return null;
    return { text, owner };
  };
  return {
    async holder(serial) {
      return (await liveLock(fileOf(serial)))?.owner ?? null;
    },
    async revokeAgent(serial) {
      const file = fileOf(serial);
      const lock = await liveLock(file);
      if (!lock?.owner.agent) return null;
      await removeStale(file, lock.text);
      return lock.owner;
    },
    async acquire(serial, info) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const file = fileOf(serial);
      const owner: DeviceLockOwner = { pid: process.pid, taskId: info.taskId, goal: info.goal, startedAt: now(), ...(info.agent && { agent: info.agent }) };
      const text = JSON.stringify(owner);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        if (await createLock(file, text)) {
          heldHere.add(file);
          let released = false;
          return {
            async release() {
              if (released) return;
              released = true;
              heldHere.delete(file);
              // Only our own file: a stale-lock takeover by someone else must survive our release.
              if ((await readLock(file).catch(() => null)) === text) await rm(file, { force: true });
            },
            async stillHeld() {
              return !released && (await readLock(file).catch(() => null)) === text;
            },
          };
        }
        const found = await readLock(file);
        if (found === null) continue;
        const holder = parseOwner(found);
        const leftByUs = holder?.pid === process.pid && !heldHere.has(file);
        if (holder && isProcessAlive(holder.pid) && !leftByUs) throw new DeviceBusyError(busySaying(serial, holder));
        await removeStale(file, found);
      }
      throw new DeviceBusyError(say('deviceLock.contended', { serial }));
    },
  };
}
