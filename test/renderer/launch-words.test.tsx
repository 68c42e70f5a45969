// @vitest-environment jsdom
// Several phones' results in a Chinese window: the reason under a phone whose task started and then failed or was
// stopped is worded from its code, like the result card, never the English the record keeps.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { newTaskRecord, type TaskRecord } from '../../src/shared/task';
import { launchRowOf } from '../../src/shared/launch';
import { actionCall } from '../../src/shared/supervision-words';
import { LaunchResults } from '../../src/renderer/src/components/launch/LaunchResults';
import { latinSentences } from '../support/latin-sentences';
import { inLanguage } from './in-language';

afterEach(cleanup);

const ended = (serial: string, status: TaskRecord['status'], failureReason: string, failureSaid: TaskRecord['failureSaid']): TaskRecord => ({
  ...newTaskRecord({ id: `t-${serial}`, goal: '打开笔记', serial, planner: { kind: 'replay', exposesReasoning: false }, maxSteps: 30, createdAt: 1 }),
  status,
  failureReason,
  ...(failureSaid && { failureSaid }),
  startedAt: 1,
  finishedAt: 2,
});

const refusedStep = ended('R58M1', 'failed', 'Step 1: the person said no to Open Notes, so it was not done', {
  code: 'refusal.stepSaidNo',
  values: { step: 1, actionCall: actionCall('launch_app', { app: 'Notes' }, undefined) },
});
const stopped = ended('R58M2', 'cancelled', 'stopped by the user', { code: 'stop.byPerson', values: {} });
const launch = { launchId: 'l1', goal: '打开笔记', rows: [launchRowOf(refusedStep), launchRowOf(stopped)] };

describe("Several phones' reasons", () => {
  it("Scenario: Several phones words the reason of a phone whose task failed or was stopped in the reader's language", () => {
    const { container } = inLanguage('zh-CN', <LaunchResults launch={launch} />);
    const reasons = screen.getAllByTestId('launch-row').map((row) => row.querySelector('.launch-reason')?.textContent);
    expect(reasons).toEqual(['第 1 步：你拒绝了打开 Notes，所以它没有执行', '你停止了任务']);
    expect(latinSentences(container.textContent ?? '', ['Notes', 'R58M1', 'R58M2'])).toEqual([]);
    cleanup();
    // An English window reads the words the records keep.
    inLanguage('en', <LaunchResults launch={launch} />);
    expect(screen.getAllByTestId('launch-row').map((row) => row.querySelector('.launch-reason')?.textContent)).toEqual([refusedStep.failureReason, 'stopped by the user']);
  });
});
