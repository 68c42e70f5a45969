import { useState, type FormEvent } from 'react';
import type { PlannerInfo } from '../../../../shared/task';
import { DEFAULT_MODELS } from '../../../../shared/settings';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { selectedDevice, useDevicesStore } from '../../store/devices-store';
import { useSettingsStore } from '../../store/settings-store';
import { entryFor, isRunning, useTaskStore } from '../../store/task-store';
import { IncompleteNote } from '../settings/IncompleteNote';
import { PlannerLabel } from '../timeline/PlannerLabel';
import { useShownTask } from './use-shown-task';

/** The planner the next run will use, as far as the page can tell from the settings in effect. */
function usePlannerPreview(): PlannerInfo | null {
  const effective = useSettingsStore((s) => s.screen?.effective);
  if (!effective) return null;
  const ai = effective.aiPlanner;
  if (!ai.enabled) return { kind: 'stub', exposesReasoning: false };
  return {
    kind: 'ai',
    provider: ai.provider,
    transport: ai.transport,
    model: ai.model || DEFAULT_MODELS[ai.provider],
    exposesReasoning: ai.transport === 'direct',
  };
}

const GOAL_DRAFT_KEY = 'amc.goalDraft';

/** The goal as typed, kept for this tab so a reload does not lose it. */
function useGoalDraft(): [string, (goal: string) => void] {
  const [goal, setGoal] = useState(() => {
    try {
      return sessionStorage.getItem(GOAL_DRAFT_KEY) ?? '';
    } catch {
      return '';
    }
  });
  const update = (next: string) => {
    setGoal(next);
    try {
      sessionStorage.setItem(GOAL_DRAFT_KEY, next);
    } catch {
      // Storage can be unavailable (private mode, quota); the goal still works, it just does not survive a reload.
    }
  };
  return [goal, update];
}

/** The goal and the task's controls: Run (Enter), Stop, Pause/Resume. */
export function GoalBox() {
  const bridge = useBridge();
  const [goal, setGoal] = useGoalDraft();
  const [busy, setBusy] = useState(false);
  const device = useDevicesStore(selectedDevice);
  // Run is about the selected phone; Pause and Stop about the task on screen (it may be on a phone that vanished).
  const busyHere = isRunning(useTaskStore(entryFor(device?.serial))?.task);
  const { entry } = useShownTask();
  const task = entry?.task;
  const running = isRunning(task);
  const paused = running && entry?.paused === true;
  const preview = usePlannerPreview();
  const ready = device?.state === 'device';

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
    }
  };

  const run = (event: FormEvent) => {
    event.preventDefault();
    if (!device || !goal.trim() || busyHere) return;
    void act(async () => {
      const record = await bridge.call('tasks.run', { serial: device.serial, goal });
      // The events may already have created it; the answer is the same task at an earlier moment.
      const store = useTaskStore.getState();
      if (store.bySerial[record.serial]?.task.id !== record.id) store.attach(record.serial, { task: record, paused: false });
    });
  };

  const runDisabledReason = !device ? 'Choose a phone first' : !ready ? 'The phone is not ready' : busyHere ? 'A task is running on this phone' : undefined;
  return (
    <form className="goal-box" onSubmit={run} aria-label="Goal">
      <label htmlFor="goal-input">What should the phone do?</label>
      <div className="goal-row">
        <input
          id="goal-input"
          value={goal}
          onChange={(event) => setGoal(event.target.value)}
          placeholder="e.g. Add Alice with number 555-0100 to contacts"
          maxLength={2000}
        />
        <button type="submit" className="button primary" disabled={!!runDisabledReason || !goal.trim() || busy} title={runDisabledReason}>
          Run
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={!running || busy}
          onClick={() => void act(() => bridge.call(paused ? 'tasks.resume' : 'tasks.pause', { taskId: task?.id }))}
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" className="button danger" disabled={!running || busy} onClick={() => void act(() => bridge.call('tasks.stop', { taskId: task?.id }))}>
          Stop
        </button>
      </div>
      <p className="goal-meta muted">
        {running && task ? <PlannerLabel planner={task.planner} /> : preview && <PlannerLabel planner={preview} />}
        {running && task && (
          <span data-testid="task-state">
            {' '}
            · {paused ? 'paused — you have control of the phone' : `running, step ${task.steps.length} of at most ${task.maxSteps}`}
          </span>
        )}
        {!device && <span>{preview ? ' · ' : ''}Choose or start a phone to run a goal.</span>}
        <IncompleteNote />
      </p>
    </form>
  );
}
