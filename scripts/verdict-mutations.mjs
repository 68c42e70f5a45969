#!/usr/bin/env node
// Mutation check of the verdict: flips each of its rules in turn (src/shared/verdict.ts and the action count in
// src/shared/turns.ts), runs the verdict's tests, and says which flip no test caught. Exit 0 only when every
// flip failed some test. Usage: node scripts/verdict-mutations.mjs [extra test files...]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const VERDICT = 'src/shared/verdict.ts';
const TURNS = 'src/shared/turns.ts';
const tests = ['test/shared/verdict.test.ts', ...process.argv.slice(2)];

/** Each rule: the file, the text that states it, and that text flipped. */
const RULES = [
  ['a running task has no verdict', VERDICT, "    case 'running':\n      return null;", "    case 'running':\n      return 'failed';"],
  ['the built-in planner only looked', VERDICT, "      if (task.planner.kind === 'stub') return 'looked-only';\n", ''],
  ['a failed check of the claim is not verified', VERDICT, "task.verification?.status === 'not-verified' ? 'done-not-verified' : 'done'", "'done'"],
  ['an interruption is not a stop or a failure', VERDICT, "      if (task.failureSaid && INTERRUPTED_CODES.includes(task.failureSaid.code)) return 'interrupted';\n", ''],
  ['a file never finished is an interruption', VERDICT, "['stop.appClosed', 'stop.neverFinished']", "['stop.appClosed']"],
  ['the app closing is an interruption', VERDICT, "['stop.appClosed', 'stop.neverFinished']", "['stop.neverFinished']"],
  ['failed and stopped are apart', VERDICT, "task.status === 'failed' ? 'failed' : 'stopped'", "task.status === 'failed' ? 'stopped' : 'failed'"],
  ['an action reached the phone', VERDICT, "sentToPhone(step.outcome) || step.planned?.source === 'skipped'", "true"],
  ['a step already done counts as checked', VERDICT, " || step.planned?.source === 'skipped'", ''],
  ['a question is not an action', TURNS, "['question', 'hand-over', 'wait', 'finish']", "['hand-over', 'wait', 'finish']"],
  ['a hand-over is not an action', TURNS, "['question', 'hand-over', 'wait', 'finish']", "['question', 'wait', 'finish']"],
  ['a wait is not an action', TURNS, "['question', 'hand-over', 'wait', 'finish']", "['question', 'hand-over', 'finish']"],
  ['a denied action is not an action', TURNS, ' && !isDenied(step.outcome)', ''],
  ["only the model's claim is judged", VERDICT, "  if (!claim?.planned || !MODELS_OWN.includes(claim.planned.source)) return null;\n", ''],
  ['only a question goal may be answered from the screen', VERDICT, 'isQuestionGoal(record.goal) && ', ''],
  ['an answer read from the screen stands for an action', VERDICT, '  if (answered) return null;\n', ''],
  ['a claim with no action is not verified', VERDICT, 'if (acted.length === 0) {', 'if (acted.length < 0) {'],
  ["a last action that did not check out is not verified", VERDICT, "return last?.status === 'not-verified' ? last : null;", 'return null;'],
  ['an answer repeats a whole label, not part of a word', VERDICT, "`(^|[^\\\\p{L}\\\\p{N}])${escapeRegExp(part)}($|[^\\\\p{L}\\\\p{N}])`", '`${escapeRegExp(part)}`'],
  ['a one-letter label proves nothing', VERDICT, 'part.trim().length >= 2', 'part.trim().length >= 1'],
  ["a content description is a label", VERDICT, ", element.desc ?? ''", ''],
  ['a question mark makes a question', VERDICT, '/[?？]$/.test(text) || ', ''],
  ['a question word makes a question', VERDICT, 'QUESTION_START.test(text) || ', ''],
  ['a Chinese question word makes a question', VERDICT, ' || QUESTION_ZH.test(text)', ''],
];

const original = new Map([VERDICT, TURNS].map((file) => [file, readFileSync(file, 'utf8')]));
const survivors = [];
try {
  for (const [rule, file, from, to] of RULES) {
    const text = original.get(file);
    if (!text.includes(from)) throw new Error(`the rule "${rule}" is no longer written as expected in ${file}: update this script`);
    writeFileSync(file, text.replace(from, to));
    let caught = true;
    try {
      execFileSync('npx', ['vitest', 'run', ...tests], { stdio: 'ignore' });
      caught = false;
    } catch {
      // A failing test run caught the flip.
    }
    writeFileSync(file, text);
    console.log(`${caught ? 'caught ' : 'MISSED '} ${rule}`);
    if (!caught) survivors.push(rule);
  }
} finally {
  for (const [file, text] of original) writeFileSync(file, text);
}
console.log(`${RULES.length - survivors.length} of ${RULES.length} rules flipped were caught by ${tests.join(', ')}`);
process.exit(survivors.length ? 1 : 0);
