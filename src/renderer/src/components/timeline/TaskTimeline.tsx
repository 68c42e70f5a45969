import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { TaskRecord } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { inspect } from '../../store/inspect-store';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { EarlierTurns } from './EarlierTurns';
import { PlannerLabel, plannerText } from './PlannerLabel';
import { StepCard } from './StepCard';
import { StepNav } from './StepNav';
import { TaskResultCard } from './TaskResultCard';
import { marksSources, stepPhase } from './step-view';
import { FOLLOW_END_ATTRIBUTE, useFollowNewest } from './use-follow-newest';

/** Which cards are open, per task: compact by default, opened by a click or a jump. */
function useExpandedSteps(taskId: string) {
  const [expanded, setExpanded] = useState<{ taskId: string; steps: ReadonlySet<number> }>({ taskId, steps: new Set() });
  const steps = expanded.taskId === taskId ? expanded.steps : new Set<number>();
  const update = (change: (steps: Set<number>) => void) => {
    const next = new Set(steps);
    change(next);
    setExpanded({ taskId, steps: next });
  };
  return {
    isOpen: (step: number) => steps.has(step),
    toggle: (step: number) => update((open) => (open.has(step) ? open.delete(step) : open.add(step))),
    open: (step: number) => update((open) => open.add(step)),
  };
}

/**
 * A task's turns in order, newest last, closed by its result: the same view for a live task and for history. The
 * turns scroll in their own area, which follows the newest turn unless the person has scrolled up. `after` (e.g. the
 * task's log of decisions) scrolls with the turns, below the result.
 */
export function TaskTimeline({ task, after }: { task: TaskRecord; after?: ReactNode }) {
  const running = task.status === 'running' || task.status === 'pending';
  const phone = useDevicesStore((s) => nameOfSerial(s, task.serial));
  const area = useRef<HTMLDivElement>(null);
  const bridge = useBridge();
  const words = useWords();
  const { t } = words;
  const last = task.steps.at(-1);
  const { offerJump, onScroll, onWheel, jumpToLatest } = useFollowNewest(
    area,
    `${task.id}:${task.steps.length}:${last ? stepPhase(last, running, task.pending?.step ?? null) : ''}:${task.status}`,
    task.id,
  );
  const cards = useExpandedSteps(task.id);
  const [jumpTarget, setJumpTarget] = useState<number | null>(null);

  useEffect(() => {
    if (jumpTarget === null) return;
    const card = area.current?.querySelector<HTMLElement>(`[data-testid="step-card"][data-step="${jumpTarget}"]`);
    card?.scrollIntoView({ block: 'start' });
    card?.querySelector<HTMLElement>('.step-toggle')?.focus({ preventScroll: true });
    setJumpTarget(null);
  }, [jumpTarget]);

  return (
    <div className="task-timeline" data-testid="task-timeline" data-task-id={task.id}>
      <p className="task-goal" title={t('app:timeline.goalTitle', { goal: task.goal, phone, planner: plannerText(task.planner, words) })}>
        <span className="muted">{t('app:timeline.goal')}</span> {task.goal} <span className="muted">{t('app:timeline.onPhone', { phone })}</span>
        <PlannerLabel planner={task.planner} />
      </p>
      {/* "Jump to latest" beside the step list, outside the steps: it covers none of them and takes none of their height. */}
      <div className="timeline-bar">
        <StepNav
          steps={task.steps}
          onJump={(step) => {
            cards.open(step);
            setJumpTarget(step);
          }}
        />
        {offerJump && (
          <button type="button" className="button primary jump-latest" onClick={jumpToLatest}>
            {t('app:timeline.jumpLatest')}
          </button>
        )}
      </div>
      <div className="timeline-scroll" ref={area} onScroll={onScroll} onWheel={onWheel} tabIndex={0} aria-label={t('app:timeline.stepsLabel')} data-testid="timeline-scroll">
        {/* What is followed: the steps and the result; the log of decisions below is there to scroll to. */}
        <div {...{ [FOLLOW_END_ATTRIBUTE]: '' }}>
          <EarlierTurns task={task} area={area} />
          <ol className="step-list" aria-label={t('app:timeline.steps')}>
            {task.steps.map((step, index) => (
              <li key={step.step}>
                <StepCard
                  step={step}
                  planner={task.planner}
                  showSource={marksSources(task)}
                  running={running}
                  waitingStep={task.pending?.step ?? null}
                  endedHere={index === task.steps.length - 1 && (task.status === 'failed' || task.status === 'cancelled') ? task.status : null}
                  expanded={cards.isOpen(step.step)}
                  onToggle={() => cards.toggle(step.step)}
                  onInspect={() => void inspect(bridge, { kind: 'step', taskId: task.id, step: step.step })}
                />
              </li>
            ))}
          </ol>
          {running && task.steps.length === 0 && <p className="muted">{t('app:timeline.looking')}</p>}
          <TaskResultCard task={task} />
        </div>
        {after}
      </div>
    </div>
  );
}
