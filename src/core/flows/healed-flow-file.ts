import { isSeq, parseDocument, stringify } from 'yaml';
import type { TaskRecord } from '../../shared/task';
import { actionStepOf } from './flow-from-record';
import { writtenLiterals } from './flow-variables';
import { fileForm } from './flow-to-yaml';
import { ENGLISH, type Words } from '../../shared/i18n/translate';

/**
 * `amc flow heal FILE`: the flow file as the person wrote it, character for character, with each step the model
 * repaired replaced by the steps it took instead, read from the run's record as `amc flow export` reads a task: each
 * action on the element it named, by a locator. A comment above them says which step it was and what happened.
 */

export interface HealedStep {
  /** 0-based, in the file's `steps`. */
  index: number;
  /** The turns the model acted on in its place. */
  turns: readonly number[];
  /** What happened, in plain words (the step's report line), in the reader's language. */
  detail: string;
}

/** A step on one line as a flow file writes it in a list (`tap: {text: Save}`). */
const oneLine = (step: Record<string, unknown>) =>
  Object.entries(step)
    .map(([key, value]) => `${key}: ${stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim()}`)
    .join(', ');

export function healedFlowText(original: string, record: TaskRecord, healed: readonly HealedStep[], { t }: Words = ENGLISH): string {
  const doc = parseDocument(original);
  const sequence = doc.get('steps', true);
  if (!isSeq(sequence)) return original;
  let text = original;
  // From the last step back, so each replacement leaves the earlier steps' places in the text where they were.
  for (const { index, turns, detail } of [...healed].sort((a, b) => b.index - a.index)) {
    const item = sequence.items[index] as { range?: [number, number, number] } | undefined;
    if (!item?.range) continue;
    const [start, rangeEnd] = item.range;
    // The item's range runs on to the next item's indentation: the step ends where its own text does.
    const end = start + text.slice(start, rangeEnd).trimEnd().length;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const dash = text.slice(lineStart, start).indexOf('-');
    const indent = ' '.repeat(Math.max(0, dash));
    const steps = turns.flatMap((turn) => {
      const recorded = record.steps.find((step) => step.step === turn);
      const step = recorded && actionStepOf(record, recorded);
      return step ? [`${indent}- ${oneLine(fileForm(writtenLiterals('tool' in step ? { ...step, why: undefined } : step)))}`] : [];
    });
    const was = text.slice(start, end).trim().replace(/\s*\n\s*/g, ' ');
    const comment = `${indent}# ${t('common:flowFile.healed', { step: index + 1, was, detail: detail.replace(/\n/g, ' ') })}`;
    text = `${text.slice(0, lineStart)}${[comment, ...steps].join('\n')}${text.slice(end)}`;
  }
  return text;
}
