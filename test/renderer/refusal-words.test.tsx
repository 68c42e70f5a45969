// @vitest-environment jsdom
// The timeline's result card of a task a refusal ended, and of one the person stopped, in a Chinese window: which
// action, that no one could answer (or the person said no), who stopped it; no English sentence of them.
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { newTaskRecord, type TaskRecord } from '../../src/shared/task';
import { TaskResultCard } from '../../src/renderer/src/components/timeline/TaskResultCard';
import { i18nextFor } from '../../src/shared/i18n/translate';
import { saidList } from '../../src/shared/said';
import { actionCall } from '../../src/shared/supervision-words';
import { latinSentences } from '../support/latin-sentences';

afterEach(cleanup);

const ended = (status: TaskRecord['status'], failureReason: string, failureSaid: TaskRecord['failureSaid']): TaskRecord => ({
  ...newTaskRecord({ id: 't1', goal: '打开笔记', serial: 'R58M123', planner: { kind: 'replay', exposesReasoning: false }, maxSteps: 30, createdAt: 1 }),
  status,
  failureReason,
  ...(failureSaid && { failureSaid }),
  finishedAt: 2,
});

const inChinese = (task: TaskRecord) =>
  render(
    <I18nextProvider i18n={i18nextFor('zh-CN')}>
      <TaskResultCard task={task} />
    </I18nextProvider>,
  );

describe('a refusal and a stop in a Chinese window', () => {
  it('Scenario: The result card of a refused or stopped task says in Chinese which action, who said no or that no one could answer, and who stopped it', () => {
    const open = actionCall('launch_app', { app: 'Notes' }, undefined);
    const unanswered = ended('failed', "Open Notes needs a person's yes (step mode: every action waits for your yes) and no person is present to answer", {
      code: 'refusal.noOneAnswered',
      values: { actionCall: open, reasonsSaid: saidList([{ code: 'policy.stepMode', values: {} }]), whySaid: saidList([{ code: 'refusal.noPersonPresent', values: {} }]) },
    });
    const { container } = inChinese(unanswered);
    expect(screen.getByText(/打开 Notes需要有人同意（逐步模式：每个操作都等你同意），但没有人在场回答/)).toBeDefined();
    expect(latinSentences(container.textContent ?? '', ['Notes'])).toEqual([]);
    cleanup();

    const saidNo = ended('failed', 'Step 1: the person said no to Open Notes, so it was not done', { code: 'refusal.stepSaidNo', values: { step: 1, actionCall: open } });
    const refused = inChinese(saidNo);
    expect(screen.getByText(/第 1 步：你拒绝了打开 Notes，所以它没有执行/)).toBeDefined();
    expect(latinSentences(refused.container.textContent ?? '', ['Notes'])).toEqual([]);
    cleanup();

    const stopped = inChinese(ended('cancelled', 'stopped by the user', { code: 'stop.byPerson', values: {} }));
    expect(screen.getByText(/你停止了任务/)).toBeDefined();
    expect(stopped.container.textContent).not.toContain('stopped by the user');
  });
});
