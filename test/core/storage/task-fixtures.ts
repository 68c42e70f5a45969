import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Scene } from '../../../src/shared/scene';
import type { TaskEvent } from '../../../src/shared/task';

export const scene: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', activity: '.Settings', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'TextView', text: 'Settings', bounds: [0, 100, 1080, 200] },
    { id: 'e2', type: 'Button', text: 'Wi-Fi <script>alert(1)</script>', bounds: [0, 300, 1080, 420], clickable: true },
  ],
};

/** A finished two-turn task's events, in the order the runtime emits them. */
export function taskEvents(taskId: string, at = 1_700_000_000_000): TaskEvent[] {
  return [
    {
      type: 'task.started',
      taskId,
      at,
      goal: 'Open Wi-Fi settings',
      serial: '127.0.0.1:5600',
      planner: { kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-test', exposesReasoning: true },
      maxSteps: 10,
    },
    { type: 'step.observed', taskId, at: at + 10, step: 1, scene, sceneError: null, screenshot: { mediaType: 'image/jpeg', width: 540, height: 1200, bytes: 41234 }, screenChanged: null, observeMs: 80 },
    { type: 'step.planned', taskId, at: at + 20, step: 1, tool: 'tap', args: { element_id: 'e2' }, rationale: 'The Wi-Fi row opens the Wi-Fi page.', thinking: 'I see a Wi-Fi row.', usage: { inputTokens: 1200, outputTokens: 40 }, costUsd: null, source: 'model', planMs: 900 },
    { type: 'step.executed', taskId, at: at + 30, step: 1, outcome: { ok: true, attempts: 1, durationMs: 35, target: { x: 540, y: 360, elementId: 'e2', label: 'Button "Wi-Fi"' } }, executeMs: 40 },
    { type: 'step.observed', taskId, at: at + 40, step: 2, scene, sceneError: null, screenshot: null, screenChanged: true, observeMs: 70 },
    { type: 'step.planned', taskId, at: at + 50, step: 2, tool: 'finish_task', args: { success: true, reason: 'Wi-Fi is open' }, rationale: 'Done.', thinking: null, usage: { inputTokens: 1300, outputTokens: 30 }, costUsd: null, source: 'model', planMs: 800 },
    { type: 'task.finished', taskId, at: at + 60, status: 'completed', failureReason: null, result: 'Wi-Fi is open', steps: 1, usage: { inputTokens: 2500, outputTokens: 70 }, durationMs: 1960 },
  ];
}

/** One turn of a long task (observe, plan, act), as the lines of its file. */
function turnLines(taskId: string, step: number, at: number): string {
  const events: TaskEvent[] = [
    { type: 'step.observed', taskId, at, step, scene, sceneError: null, screenshot: null, screenChanged: step > 1, observeMs: 50 },
    { type: 'step.planned', taskId, at, step, tool: 'swipe', args: { direction: 'up' }, rationale: `Turn ${step}: scroll on.`, thinking: null, usage: { inputTokens: 900, outputTokens: 20 }, costUsd: null, source: 'model', planMs: 300 },
    { type: 'step.executed', taskId, at, step, outcome: { ok: true, attempts: 1, durationMs: 20 }, executeMs: 25 },
  ];
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}

/**
 * The text of a task file with `turns` turns (finished when `finished`), written in chunks to `write` so that files
 * of hundreds of MB never sit in memory whole.
 */
export async function writeLongTask(write: (chunk: string) => Promise<void>, taskId: string, turns: number, options: { finished?: boolean } = {}): Promise<void> {
  const at = 1_700_000_000_000;
  const [started] = taskEvents(taskId, at);
  await write(`${JSON.stringify({ ...started!, maxSteps: 500 })}\n`);
  let chunk = '';
  for (let step = 1; step <= turns; step += 1) {
    chunk += turnLines(taskId, step, at + step);
    if (chunk.length > 1_000_000) {
      await write(chunk);
      chunk = '';
    }
  }
  const finished: TaskEvent = { type: 'task.finished', taskId, at: at + turns + 1, status: 'completed', failureReason: null, result: 'done', steps: turns, usage: { inputTokens: 900 * turns, outputTokens: 20 * turns }, durationMs: 375 * turns };
  await write(chunk + (options.finished ? `${JSON.stringify(finished)}\n` : ''));
}

/** Writes a long task's file at `file` (its folder made when missing), a chunk at a time. */
export async function writeLongTaskFile(file: string, taskId: string, turns: number, options: { finished?: boolean } = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const handle = await open(file, 'w');
  try {
    await writeLongTask(async (chunk) => void (await handle.write(chunk)), taskId, turns, options);
  } finally {
    await handle.close();
  }
}

/** The size of one turn's lines in a long task file (to size files by bytes). */
export const turnBytes = (taskId: string): number => Buffer.byteLength(turnLines(taskId, 1, 1_700_000_000_000));
