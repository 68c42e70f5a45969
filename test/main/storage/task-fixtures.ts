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
    { type: 'step.planned', taskId, at: at + 20, step: 1, tool: 'tap', args: { element_id: 'e2' }, rationale: 'The Wi-Fi row opens the Wi-Fi page.', thinking: 'I see a Wi-Fi row.', usage: { inputTokens: 1200, outputTokens: 40 }, costUsd: null, planMs: 900 },
    { type: 'step.executed', taskId, at: at + 30, step: 1, outcome: { ok: true, attempts: 1, durationMs: 35, target: { x: 540, y: 360, elementId: 'e2', label: 'Button "Wi-Fi"' } }, executeMs: 40 },
    { type: 'step.observed', taskId, at: at + 40, step: 2, scene, sceneError: null, screenshot: null, screenChanged: true, observeMs: 70 },
    { type: 'step.planned', taskId, at: at + 50, step: 2, tool: 'finish_task', args: { success: true, reason: 'Wi-Fi is open' }, rationale: 'Done.', thinking: null, usage: { inputTokens: 1300, outputTokens: 30 }, costUsd: null, planMs: 800 },
    { type: 'task.finished', taskId, at: at + 60, status: 'completed', failureReason: null, result: 'Wi-Fi is open', steps: 1, usage: { inputTokens: 2500, outputTokens: 70 }, durationMs: 1960 },
  ];
}
