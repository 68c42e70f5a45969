import { describe, expect, it } from 'vitest';
import { renderTaskReport, reportFileName, sceneWireframe } from '../../../src/core/storage/html-report';
import { joinLabelParts, type Scene } from '../../../src/shared/scene';
import { applyTaskEvent, newTaskRecord, type TaskRecord } from '../../../src/shared/task';
import { taskEvents } from './task-fixtures';

function finishedRecord(): TaskRecord {
  const events = taskEvents('r1');
  const start = events[0] as Extract<(typeof events)[number], { type: 'task.started' }>;
  const initial = newTaskRecord({ id: 'r1', goal: start.goal, serial: start.serial, planner: start.planner, maxSteps: start.maxSteps, createdAt: start.at });
  return events.reduce(applyTaskEvent, initial);
}

describe('HTML report', () => {
  it('Scenario: The HTML report is self-contained and escapes on-screen text', () => {
    const html = renderTaskReport(finishedRecord());
    // Nothing is loaded from anywhere: no scripts, no external resources, no links.
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\ssrc\s*=/i);
    expect(html).not.toMatch(/\shref\s*=/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).toContain("default-src 'none'");
    // The on-screen text's markup arrives as text.
    expect(html).toContain('Wi-Fi &lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('shows the summary and every turn with rationale, thinking, outcome, timings, tokens and a wireframe', () => {
    const html = renderTaskReport(finishedRecord());
    expect(html).toContain('<h1>Open Wi-Fi settings</h1>');
    expect(html).toContain('<span class="ok">done</span>');
    expect(html).toContain('Step 1: Tap &#39;Wi-Fi &lt;script&gt;alert(1)&lt;/script&gt;&#39;');
    expect(html).toContain('tap(element_id=&quot;e2&quot;)');
    expect(html).toContain('The Wi-Fi row opens the Wi-Fi page.');
    expect(html).toContain('I see a Wi-Fi row.');
    expect(html).toContain('observe 80 ms · plan 900 ms · act 40 ms');
    expect(html).toContain(`${(1200).toLocaleString()} tokens in · 40 out`);
    expect(html.match(/<svg class="wire"/g)).toHaveLength(2);
    // The action's target is marked: its element box and the point.
    expect(html).toContain('class="el target"');
    expect(html).toContain('cx="540" cy="360"');
  });

  it('marks missing thinking as not available when the planner cannot expose it', () => {
    const record = { ...finishedRecord(), planner: { kind: 'ai' as const, transport: 'cloud-proxy' as const, exposesReasoning: false } };
    record.steps = record.steps.map((s) => ({ ...s, planned: s.planned && { ...s.planned, thinking: null, rationale: null } }));
    expect(renderTaskReport(record)).toContain('not available with this planner/transport');
  });

  it('says whether an action changed the screen, and claims nothing for a look at the screen', () => {
    const record = finishedRecord();
    const acted = renderTaskReport(record);
    // Step 1 tapped and step 2 observed a different screen.
    expect(acted).toContain('<tr><th>Screen changed by it</th><td>yes</td></tr>');
    const looked = {
      ...record,
      steps: record.steps.map((s, i) =>
        i === 0 ? { ...s, planned: s.planned && { ...s.planned, tool: 'describe_screen', args: {} }, outcome: { ok: true, attempts: 0, durationMs: 0 } } : s,
      ),
    };
    const html = renderTaskReport(looked);
    expect(html).not.toContain('Screen changed by it');
    expect(html).not.toContain('0 attempts');
  });

  it('names the download after the goal and the id', () => {
    expect(reportFileName(finishedRecord(), 'html')).toBe('amc-task-open-wi-fi-settings-r1.html');
  });

  it('Scenario: A built-in planner run says it only looked and claims no change for looking (the report)', () => {
    const record = { ...finishedRecord(), planner: { kind: 'stub' as const, exposesReasoning: false }, result: null };
    const html = renderTaskReport(record);
    expect(html).toContain('<span class="muted">looked only</span> — Looked at the screen only — the AI planner is off.');
    expect(html).toContain('built-in planner (no AI)');
    expect(html).not.toMatch(/>done</);
  });

  it('Scenario: People read merged labels part by part (HTML report)', () => {
    const scene: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.whatsapp', keyboardShown: false },
      elements: [{ id: 'e1', type: 'LinearLayout', text: joinLabelParts(['Eve | Design', 'Sent', '<b>C:\\temp</b>']), bounds: [0, 300, 1080, 480], clickable: true }],
    };
    const svg = sceneWireframe(scene, { x: 540, y: 390, elementId: 'e1', label: 'LinearLayout' });
    const shown = 'Eve | Design · Sent · &lt;b&gt;C:\\temp&lt;/b&gt;';
    expect(svg).toContain(`font-size="30">${shown}</text>`);
    expect(svg).toContain(`<title>e1 LinearLayout &quot;${shown}&quot;</title>`);
    expect(svg).not.toContain('\\|');
  });
});
