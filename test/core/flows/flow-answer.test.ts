// A question's answer kept in a flow, on the 105 real uiautomator dumps (../shared/real-dumps) read as the
// Observer reads them: RTL and CJK labels, merged rows, numbers with units. Every label part an answer quotes is
// found, read again on the same screen as it was, and read anew when that place shows something else.
import { describe, expect, it } from 'vitest';
import { readRealDump, realDumps } from '../../support/real-dumps';
import { buildScene } from '../../../src/core/perception/scene-builder';
import { screenFacts } from '../../../src/core/perception/screen-facts';
import { parseUiHierarchy } from '../../../src/core/perception/ui-hierarchy';
import { answerNow, answerOf } from '../../../src/core/flows/flow-answer';
import { resolveLocator } from '../../../src/core/flows/locator';
import { joinLabelParts, labelParts, type Scene } from '../../../src/shared/scene';
import { newTaskRecord, type TaskRecord } from '../../../src/shared/task';
import { step } from '../runtime/doubles';

const dumps = realDumps().map((dump) => ({ name: `${dump.set}/${dump.name}`, xml: readRealDump(dump) }));
const xmlOf = new Map(dumps.map((dump) => [dump.name, dump.xml]));
const sceneOf = (name: string): Scene => {
  const hierarchy = parseUiHierarchy(xmlOf.get(name)!);
  return buildScene(hierarchy, screenFacts(hierarchy, '', null), { tokenBudget: Infinity });
};

/** A question task that finished on `scene` with `answer`. */
const answered = (scene: Scene, answer: string): TaskRecord => ({
  ...newTaskRecord({ id: 'q', goal: 'What does the screen say?', serial: 'p', planner: { kind: 'ai', exposesReasoning: true }, maxSteps: 5, createdAt: 0 }),
  status: 'completed',
  result: answer,
  steps: [
    {
      step: 1,
      scene,
      sceneError: null,
      screenshot: null,
      screenChanged: null,
      planned: step('finish_task', { success: true, reason: answer }),
      outcome: null,
      timings: { observeMs: 1, planMs: 1, executeMs: null },
    },
  ],
});

/** Letters and digits only at both ends: a part an answer can quote whole (not "…" or "(3)"). */
const quotable = (part: string) => /^[\p{L}\p{N}].*[\p{L}\p{N}]$|^[\p{L}\p{N}]$/u.test(part) && part.length <= 80;

describe('answers read off real screens', () => {
  it('an answer quoting any label part is read again on its screen, and anew when that part changes', () => {
    let checked = 0;
    let changed = 0;
    for (const { name } of dumps) {
      const scene = sceneOf(name);
      for (const element of scene.elements) {
        for (const part of labelParts(element.text ?? '').map((raw) => raw.trim())) {
          if (!quotable(part) || element.editable) continue;
          const text = `It says: ${part}.`;
          const answer = answerOf(answered(scene, text));
          // A part on an element no locator can tell apart is not kept (the model answers instead).
          if (!answer) continue;
          checked += 1;
          // What was read stands in the answer, and the same screen gives the same answer.
          expect(text.toLowerCase(), `${name}: ${answer.read}`).toContain(answer.read.toLowerCase());
          expect(answerNow(answer, scene), `${name}: ${JSON.stringify(answer.from)}`).toEqual({ text });
          // The place the answer was read from shows another value: the answer says that one.
          const located = resolveLocator(scene, answer.from);
          if (located.kind !== 'found') throw new Error(`${name}: the answer's locator lost its element`);
          const source = located.element;
          const parts = labelParts(source.text!);
          parts[answer.part] = 'ZQ-4711';
          const other: Scene = { ...scene, elements: scene.elements.map((candidate) => (candidate === source ? { ...candidate, text: joinLabelParts(parts) } : candidate)) };
          // Another element still showing the words read (a list of like rows) may be the one a label locator finds.
          if (other.elements.some((candidate) => candidate.text !== undefined && labelParts(candidate.text).some((p) => p.trim() === answer.read))) continue;
          const now = answerNow(answer, other);
          // A locator by the very words read no longer finds its element: the replay says so and the model answers.
          if ('problem' in now) continue;
          changed += 1;
          expect(now.text, `${name}: ${answer.read}`).toContain('ZQ-4711');
          expect(now.text).not.toBe(text);
        }
      }
    }
    // Most screens have many quotable parts: far more than a handful must be checked for this to mean anything.
    // (A look-alike row told apart by the very words read no longer finds its element once they change: not counted.)
    expect(checked).toBeGreaterThan(400);
    expect(changed).toBeGreaterThan(70);
  });
});
