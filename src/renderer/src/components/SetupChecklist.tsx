import { wordSaid } from '../../../shared/said';
import { useWords } from '../i18n/use-words';
import { useAppStore } from '../store/app-store';
import { useDevicesStore } from '../store/devices-store';
import { useSettingsStore } from '../store/settings-store';
import { isRunning } from '../store/task-store';
import { useStartDemo } from './devices/use-start-demo';
import { incompleteLabel, incompleteSetup } from './settings/setup-state';
import { useConnectionTest } from './settings/use-connection-test';
import { useShownTask } from './task/use-shown-task';

interface Item {
  id: 'adb' | 'phone' | 'model';
  done: boolean;
  title: string;
  detail: string;
  action?: { label: string; run(): void | Promise<void>; busy?: boolean };
  /** A second way to the same step, e.g. straight to the fields a person with an API key fills in. */
  shortcut?: { label: string; run(): void };
}

/**
 * First run: what a task needs — an adb server, a ready phone, a configured and tested model — each with the one
 * step that makes it green. The panel goes away once all three are. While the shown task runs it folds to one line
 * (the person can open it), so the task and whatever it asks of the person keep the room.
 */
export function SetupChecklist() {
  const list = useDevicesStore((s) => s.list);
  const screen = useSettingsStore((s) => s.screen);
  const tested = useSettingsStore((s) => s.lastConnectionTest);
  const openSettings = useAppStore((s) => s.toggleSettings);
  const { starting, startDemo, message: demoMessage } = useStartDemo();
  const { testing, test } = useConnectionTest();
  const taskRunning = isRunning(useShownTask().entry?.task);
  const words = useWords();
  const { t } = words;
  if (!list || !screen) return null;

  const ready = list.devices.some((device) => device.state === 'device');
  const enabled = screen.effective.aiPlanner.enabled;
  const incomplete = incompleteLabel(incompleteSetup(screen), words);
  // Cloud proxy stays the default; a person who has a provider key gets the direct fields filled in to save.
  const chooseOwnKey = () => {
    const { setValue, requestFocus } = useSettingsStore.getState();
    setValue('aiPlanner.enabled', true);
    setValue('aiPlanner.transport', 'direct');
    // The key field of the provider chosen, with the cursor in it: the next thing to do is paste the key.
    requestFocus(screen.effective.aiPlanner.provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY');
    openSettings(true);
  };
  const direct = screen.effective.aiPlanner.transport === 'direct';
  const items: Item[] = [
    {
      id: 'adb',
      done: list.problem === null,
      title: t('app:setup.adbTitle'),
      detail: list.problem ? wordSaid(list.problem, list.problemSaid, words) : t('app:setup.adbAt', { address: list.adbServer }),
    },
    {
      id: 'phone',
      done: ready,
      title: t('app:setup.phoneTitle'),
      detail: ready ? t('app:setup.phoneReady') : demoMessage && !demoMessage.ok ? demoMessage.text : t('app:setup.phoneHint'),
      ...(!ready && { action: { label: starting ? t('app:setup.starting') : t('app:setup.startDemo'), run: startDemo, busy: starting } }),
    },
    {
      id: 'model',
      done: enabled && !incomplete && tested?.result === 'ok',
      title: t('app:setup.modelTitle'),
      detail: !enabled
        ? t('app:setup.plannerOff')
        : incomplete
          ? t('app:setup.plannerIncomplete', { what: incomplete })
          : tested
            ? wordSaid(tested.message, tested.said, words)
            : t('app:setup.notTested'),
      action:
        !enabled || incomplete
          ? { label: t('app:common.openSettings'), run: () => openSettings(true) }
          : tested?.result === 'ok'
            ? undefined
            : { label: testing ? t('app:setup.testing') : t('app:setup.testConnection'), run: test, busy: testing },
      ...((!enabled || !direct) && tested?.result !== 'ok' && { shortcut: { label: t('app:setup.haveKey'), run: chooseOwnKey } }),
    },
  ];
  if (items.every((item) => item.done)) return null;
  const done = items.filter((item) => item.done).length;
  return (
    // Keyed on the task's running state: folding when a task starts and opening when it ends override what the
    // person last chose, nothing else does.
    <details key={taskRunning ? 'folded' : 'open'} open={!taskRunning} className="panel setup-checklist" data-testid="setup-checklist">
      <summary>
        <h2 className="panel-title">{t('app:setup.heading')}</h2>
        <span className="muted small" data-testid="setup-progress">
          {t('app:setup.progress', { done, total: items.length })}
        </span>
      </summary>
      <ul>
        {items.map((item) => (
          <li key={item.id} className={item.done ? 'done' : 'todo'} data-item={item.id} data-done={item.done}>
            <span className="check" aria-hidden="true">{item.done ? '✓' : '○'}</span>
            <span>
              <strong>{item.title}</strong>
              <span className="visually-hidden">{item.done ? t('app:setup.doneHidden') : t('app:setup.todoHidden')}</span> — <span className="muted">{item.detail}</span>
            </span>
            {item.action && (
              <button type="button" className="button secondary" disabled={item.action.busy} onClick={() => void item.action!.run()}>
                {item.action.label}
              </button>
            )}
            {item.shortcut && (
              <button type="button" className="button secondary" onClick={item.shortcut.run}>
                {item.shortcut.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
