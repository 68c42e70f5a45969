// Crash safety: a writer of history and settings killed with SIGKILL at random moments, again and again, in
// the same data folder. After each kill every file must still load, and nothing acknowledged may be lost.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSettingsStore } from '../../src/core/storage/settings-store';
import { createTaskStore } from '../../src/core/storage/task-store';
import { seededRandom } from './web-fuzz';

const writer = path.join(import.meta.dirname, 'crash-writer.ts');

export interface CrashResult {
  kills: number;
  /** Events the writer had acknowledged as durable before it died. */
  acknowledgedEvents: number;
  /** Acknowledged events missing afterwards (must be 0). */
  lostRecords: number;
  /** Events found beyond the acknowledged ones (the write in flight at the kill; at most one per kill). */
  unacknowledgedEventsKept: number;
  /** Kills after which a file did not load (settings) or a history file was listed as damaged. */
  unloadableAfterKill: number;
  /** Kills after which the settings were neither the last acknowledged save nor the one in flight. */
  settingsNotLastSave: number;
}

interface Acknowledged {
  events: Map<string, number>;
  settings: number | null;
}

/** Runs the writer until `killAfterMs`, then kills it with SIGKILL; resolves with what it had acknowledged. */
function runAndKill(home: string, killAfterMs: number): Promise<Acknowledged> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, home], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged: Acknowledged = { events: new Map(), settings: null };
    let buffered = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [kind, a, b] = line.split(' ');
        if (kind === 'event') acknowledged.events.set(a!, Number(b));
        if (kind === 'settings') acknowledged.settings = Number(a);
        // The clock starts at the first durable write, so every kill lands while writes are going on.
        timer ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`the writer exited by itself (${code}): ${stderr}`));
      else resolve(acknowledged);
    });
  });
}

/** Lines of a task file that are complete events (a torn last line is not). */
async function storedEvents(folder: string, taskId: string): Promise<number> {
  const text = await readFile(path.join(folder, `${taskId}.jsonl`), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => {
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  }).length;
}

export async function runCrashSafety(home: string, kills: number, seed = 3): Promise<CrashResult> {
  const random = seededRandom(seed);
  const result: CrashResult = { kills, acknowledgedEvents: 0, lostRecords: 0, unacknowledgedEventsKept: 0, unloadableAfterKill: 0, settingsNotLastSave: 0 };
  for (let i = 0; i < kills; i++) {
    const acknowledged = await runAndKill(home, Math.floor(random() * 300));
    const store = createTaskStore(home);
    const listing = await store.list();
    const settings = await createSettingsStore(home).load().catch(() => undefined);
    if (!settings || listing.damaged.length > 0) result.unloadableAfterKill++;
    // Written in order: the save in flight at the kill is either the last acknowledged value or the next one.
    const last = acknowledged.settings;
    if (settings && last !== null && settings.aiPlanner.maxSteps !== last && settings.aiPlanner.maxSteps !== 1 + (last % 500)) {
      result.settingsNotLastSave++;
    }
    for (const [taskId, count] of acknowledged.events) {
      const stored = await storedEvents(store.folder, taskId);
      result.acknowledgedEvents += count;
      result.lostRecords += Math.max(0, count - stored);
      result.unacknowledgedEventsKept += Math.max(0, stored - count);
    }
    await store.close();
  }
  return result;
}
