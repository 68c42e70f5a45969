import type { Scene } from '../../src/shared/scene';
import { newTaskRecord, type PlannerInfo, type StepRecord, type TaskRecord } from '../../src/shared/task';

export const contactsScene: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example.contacts', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'TextView', text: 'Contacts', bounds: [0, 100, 1080, 250] },
    { id: 'e2', type: 'Button', text: 'Add contact', bounds: [780, 2100, 1040, 2300], clickable: true },
    { id: 'e3', type: 'EditText', hint: 'Search', bounds: [40, 300, 1040, 420], editable: true, clickable: true },
  ],
};

export const directAnthropic: PlannerInfo = {
  kind: 'ai',
  provider: 'anthropic',
  transport: 'direct',
  model: 'claude-sonnet-4-6',
  exposesReasoning: true,
};

export const cloudProxy: PlannerInfo = { kind: 'ai', provider: 'anthropic', transport: 'cloud-proxy', exposesReasoning: false };

export function tapStep(overrides: Partial<StepRecord> = {}): StepRecord {
  return {
    step: 2,
    scene: contactsScene,
    sceneError: null,
    screenshot: null,
    screenChanged: true,
    planned: {
      tool: 'tap',
      args: { element_id: 'e2' },
      rationale: 'The contact list is open; adding a contact starts with the Add contact button.',
      thinking: 'The goal needs a new contact. e2 is the add button at the bottom right.',
      usage: { inputTokens: 1520, outputTokens: 64 },
      costUsd: null,
      source: 'model',
    },
    outcome: { ok: true, attempts: 1, durationMs: 120, target: { x: 910, y: 2200, elementId: 'e2', label: 'Button "Add contact"' } },
    timings: { observeMs: 310, planMs: 1840, executeMs: 120 },
    ...overrides,
  };
}

export function finishedTask(steps: StepRecord[], overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    ...newTaskRecord({ id: 't-1', goal: 'Add Alice to contacts', serial: 'emulator-5554', planner: directAnthropic, maxSteps: 30, createdAt: 1_700_000_000_000 }),
    status: 'completed',
    result: 'Alice was added with number 555-0100.',
    steps,
    startedAt: 1_700_000_000_000,
    finishedAt: 1_700_000_012_000,
    usage: { inputTokens: 3000, outputTokens: 150 },
    timings: { observeMs: 600, planMs: 3600, executeMs: 240, totalMs: 12_000 },
    ...overrides,
  };
}
