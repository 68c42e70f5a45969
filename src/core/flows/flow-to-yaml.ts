import { Document, isMap, isSeq, stringify } from 'yaml';
import type { ActionStep, Flow, FlowStep } from '../../shared/flow';
import { ENGLISH, type Words } from '../../shared/i18n/translate';
import { flowArgumentShape, LOCATOR_FIELDS, loneRequiredArgument, takesTarget } from './flow-file-schema';

/**
 * A Flow as the YAML a person reads and edits: each tool step in its short form (`- tap: {text: "Wi-Fi"}`), which
 * parseFlowFile reads back into the same Flow.
 */

/** A step whose one-line form is longer than this is written as a block, one field per line. */
const ONE_LINE_LIMIT = 100;

/** The file's opening comment, in the reader's language: what it is, how to check and run it, the kinds of steps. */
const header = ({ t }: Words) => [` ${t('common:flowFile.about')}`, ` ${t('common:flowFile.steps')}`].join('\n');

function shortAction(step: ActionStep): Record<string, unknown> {
  const lone = loneRequiredArgument(step.tool);
  const argumentNames = Object.keys(step.args);
  const onlyLone = lone !== undefined && argumentNames.length === 1 && argumentNames[0] === lone;
  if (onlyLone && !step.target && !step.before && !step.expect && step.why === undefined && step.timeout === undefined && step.point === undefined && step.optional === undefined && !step.when) return { [step.tool]: step.args[lone] };
  const shape = flowArgumentShape(step.tool);
  // A locator field that is also an argument (type_text's `text`) would be read as the argument: keep such a target apart.
  const inline = step.target && takesTarget(step.tool) && !LOCATOR_FIELDS.some((field) => shape && field in shape);
  const body = {
    ...(step.target ? (inline ? step.target : { target: step.target }) : {}),
    ...step.args,
    ...(step.before ? { before: step.before } : {}),
    ...(step.expect ? { expect: step.expect } : {}),
    ...(step.why !== undefined ? { why: step.why } : {}),
    ...(step.timeout !== undefined ? { timeout: step.timeout } : {}),
    ...(step.point !== undefined ? { point: step.point } : {}),
    ...(step.optional !== undefined ? { optional: step.optional } : {}),
    ...(step.when ? { when: step.when } : {}),
  };
  return { [step.tool]: body };
}

/** A step as a flow file writes it (its short form where it has one). */
export function fileForm(step: FlowStep): Record<string, unknown> {
  if ('tool' in step) return shape(step);
  const { optional, when, ...rest } = step;
  const control = { ...(optional !== undefined && { optional }), ...(when && { when }) };
  if ('ask_ai' in rest) {
    const { question, kind, into } = rest.ask_ai;
    if (kind === 'yes-no' && !into) return { ask_ai: question, ...control };
    return { ask_ai: kind === 'extract' && into ? { question, into } : rest.ask_ai, ...control };
  }
  // A block's steps in their own short forms; another file's steps are written where they are used.
  if ('run_flow' in rest) {
    const { steps, vars } = rest.run_flow;
    return { run_flow: { steps: steps.map(fileForm), ...(vars && { vars }) }, ...control };
  }
  if ('repeat' in rest) return { repeat: { ...rest.repeat, steps: rest.repeat.steps.map(fileForm) }, ...control };
  if ('retry' in rest) return { retry: { ...rest.retry, steps: rest.retry.steps.map(fileForm) }, ...control };
  return { ...rest, ...control };
}

/** A tool step the registry knows in its short form; any other stays in FlowSchema's own form (still valid). */
const shape = (step: ActionStep) => (flowArgumentShape(step.tool) ? shortAction(step) : { ...step });

export function flowToYaml(flow: Flow, words: Words = ENGLISH): string {
  const document = new Document({
    version: flow.version,
    goal: flow.goal,
    ...(flow.app ? { app: flow.app } : {}),
    ...(Object.keys(flow.vars).length ? { vars: flow.vars } : {}),
    ...(flow.recordedFrom ? { recordedFrom: flow.recordedFrom } : {}),
    steps: flow.steps.map(fileForm),
    ...(flow.answer ? { answer: flow.answer } : {}),
  });
  document.commentBefore = header(words);
  const steps = document.get('steps', true);
  if (isSeq(steps)) {
    steps.items.forEach((item, index) => {
      // A short step on one line, as a person writes it; a long one (a recorded rationale) a field per line, each
      // field's own map (a target, a state) still on one line.
      if (!isMap(item)) return;
      const oneLine = stringify(fileForm(flow.steps[index]!), { collectionStyle: 'flow', lineWidth: 0 }).length <= ONE_LINE_LIMIT;
      for (const pair of item.items) {
        if (!isMap(pair.value)) continue;
        if (oneLine) pair.value.flow = true;
        else for (const field of pair.value.items) if (isMap(field.value)) field.value.flow = true;
      }
    });
  }
  return document.toString({ lineWidth: 0 });
}

/** A step on one line as the file writes it (`tap: { text: Wi-Fi }`), to name it in a report. */
export function stepLabel(step: FlowStep): string {
  return Object.entries(fileForm(step))
    .map(([key, value]) => `${key}: ${stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim()}`)
    .join(', ');
}
