import { turnCount } from '../../../../shared/turns';
import type { FormEvent, KeyboardEvent } from 'react';
import type { PlannerInfo } from '../../../../shared/task';
import { DEFAULT_MODELS } from '../../../../shared/settings';
import { useWords } from '../../i18n/use-words';
import { useBridge } from '../../bridge-context';
import { useTaskStore } from '../../store/task-store';
import { recentGoalsKey, useGoalStore } from '../../store/goal-store';
import { useSettingsStore } from '../../store/settings-store';
import { AllowedAppsField } from '../supervision/AllowedAppsField';
import { IncompleteNote } from '../settings/IncompleteNote';
import { PlannerLabel } from '../timeline/PlannerLabel';
import { FlowFileButton } from './FlowFileButton';
import { RecentGoals } from './RecentGoals';
import { openShortcutsHelp } from './ShortcutsHelp';
import { useTaskControls } from './use-task-controls';

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

/** The goal (Enter runs, Shift+Enter starts a new line) and the task's controls: Run, Pause/Resume, Stop. */
export function GoalBox() {
  const goal = useGoalStore((s) => s.draft);
  const setGoal = useGoalStore((s) => s.setDraft);
  const controls = useTaskControls();
  const { device, task, running, paused, busy, runDisabledReason } = controls;
  const preview = usePlannerPreview();
  const { t } = useWords();
  const bridge = useBridge();
  // A flow file on the selected phone: its task shows here as a goal's does.
  const runFlow = async (text: string) => {
    if (!device) return;
    const record = await bridge.call('flows.run', { serial: device.serial, text });
    const store = useTaskStore.getState();
    if (store.bySerial[record.serial]?.task.id !== record.id) store.attach(record.serial, { task: record, paused: false });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    controls.run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    controls.run();
  };

  return (
    <form className="goal-box" onSubmit={submit} aria-label={t('app:goal.formLabel')}>
      <div className="goal-label-row">
        <label htmlFor="goal-input">{t('app:goal.question')}</label>
        <button type="button" className="button link small" onClick={openShortcutsHelp} aria-keyshortcuts="?">
          {t('app:goal.shortcuts')}
        </button>
      </div>
      <div className="goal-row">
        <textarea
          id="goal-input"
          value={goal}
          onChange={(event) => setGoal(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('app:goal.placeholder')}
          maxLength={2000}
          rows={Math.min(6, Math.max(1, goal.split('\n').length))}
          aria-describedby="goal-hint"
          aria-keyshortcuts="Enter Control+Enter Meta+Enter"
        />
        <button type="submit" className="button primary" disabled={runDisabledReason !== null} title={runDisabledReason ?? t('app:goal.runTitle')}>
          {t('app:goal.run')}
        </button>
        <button type="button" className="button secondary" disabled={!running || busy} onClick={controls.togglePause} title={t('app:goal.pauseTitle')}>
          {paused ? t('app:goal.resume') : t('app:goal.pause')}
        </button>
        <button type="button" className="button danger" disabled={!controls.canStop} onClick={controls.stop} title={t('app:goal.stopTitle')}>
          {t('app:goal.stop')}
        </button>
      </div>
      <p id="goal-hint" className="visually-hidden">
        {t('app:goal.hint')}
      </p>
      {/* One line for both: a row of its own would take the timeline's height at 1280x800. */}
      <div className="goal-extras">
        <RecentGoals phone={device ? recentGoalsKey(device) : undefined} />
        <FlowFileButton disabledReason={controls.phoneDisabledReason} title={t('app:flow.runTitle')} run={runFlow} />
      </div>
      <AllowedAppsField />
      <p className="goal-meta muted">
        {running && task ? <PlannerLabel planner={task.planner} /> : preview && <PlannerLabel planner={preview} />}
        {running && task && (
          <span data-testid="task-state">
            {' '}
            · {paused ? t('app:goal.paused') : t('app:goal.runningStep', { step: turnCount(task), max: task.maxSteps })}
          </span>
        )}
        {!device && (
          <span>
            {preview ? ' · ' : ''}
            {t('app:goal.choosePhone')}
          </span>
        )}
        <IncompleteNote />
      </p>
    </form>
  );
}
