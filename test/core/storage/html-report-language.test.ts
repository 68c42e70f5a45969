// The HTML report in the language of the window that exports it: the report's own words in Chinese, what was
// recorded (the goal, the model's words) as recorded, and the same report as before in English.
import { describe, expect, it } from 'vitest';
import { renderTaskReport } from '../../../src/core/storage/html-report';
import { historyMethods } from '../../../src/shared/contract/history';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { applyTaskEvent, newTaskRecord, type TaskRecord } from '../../../src/shared/task';
import { taskEvents } from './task-fixtures';

function finishedRecord(): TaskRecord {
  const events = taskEvents('r1');
  const start = events[0] as Extract<(typeof events)[number], { type: 'task.started' }>;
  const initial = newTaskRecord({ id: 'r1', goal: start.goal, serial: start.serial, planner: start.planner, maxSteps: start.maxSteps, createdAt: start.at });
  return events.reduce(applyTaskEvent, initial);
}

describe('HTML report language', () => {
  it('Scenario: The Chinese report says which planner drove the run and how it reached the model in Chinese words', () => {
    const plannerLine = (planner: TaskRecord['planner'], language: 'en' | 'zh-CN') =>
      /<dt>(?:Planner|规划器)<\/dt><dd>([^<]*)<\/dd>/.exec(renderTaskReport({ ...finishedRecord(), planner }, wordsFor(language)))?.[1];
    const direct = { kind: 'ai' as const, provider: 'anthropic' as const, model: 'claude-sonnet-4-6', transport: 'direct' as const, exposesReasoning: true };
    expect(plannerLine(direct, 'zh-CN')).toBe('AI 规划器 · anthropic · claude-sonnet-4-6 · 直接调用模型服务商');
    expect(plannerLine({ ...direct, transport: 'cloud-proxy' }, 'zh-CN')).toBe('AI 规划器 · anthropic · claude-sonnet-4-6 · 经云代理调用模型');
    expect(plannerLine({ ...direct, kind: 'replay' }, 'zh-CN')).toBe('回放已记录的运行；屏幕不同时：AI 规划器 · anthropic · claude-sonnet-4-6 · 直接调用模型服务商');
    expect(plannerLine({ kind: 'replay', exposesReasoning: false }, 'zh-CN')).toBe('回放已记录的运行（无 AI）');
    // English as it was.
    expect(plannerLine(direct, 'en')).toBe('AI planner · anthropic · claude-sonnet-4-6 · via direct');
  });

  it("Scenario: The HTML report is written in the language of the window that exports it", () => {
    const record = finishedRecord();
    const chinese = renderTaskReport(record, wordsFor('zh-CN'));
    expect(chinese).toContain('<html lang="zh-CN">');
    expect(chinese).toContain(`<title>任务报告：${record.goal}</title>`);
    expect(chinese).toMatch(/<dt>状态<\/dt><dd data-verdict="done"><span class="ok">完成<\/span>/);
    expect(chinese).toContain('<h2>第 1 步：');
    expect(chinese).toContain('<summary>理由</summary>');
    expect(chinese).toContain(`<h1>${record.goal}</h1>`);
    expect(chinese).not.toContain('Task report');

    const english = renderTaskReport(record);
    expect(english).toContain('<html lang="en">');
    expect(english).toContain(`<title>Task report: ${record.goal}</title>`);
    expect(english).toMatch(/<dt>Status<\/dt><dd data-verdict="done"><span class="ok">done<\/span>/);

    // The export asks in a language the contract knows, or in none (English).
    const input = historyMethods['history.exportHtml'].input;
    expect(input.safeParse({ id: 'r1', language: 'zh-CN' }).success).toBe(true);
    expect(input.safeParse({ id: 'r1' }).success).toBe(true);
    expect(input.safeParse({ id: 'r1', language: 'klingon' }).success).toBe(false);
  });
});
