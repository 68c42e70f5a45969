import { z } from 'zod';
import type { DecisionToolSpec } from '@amc/provider-clients';
import { ASK_USER, HAND_OVER } from '../../shared/action-words';
import { toolInputSchema } from './tool';

/**
 * Tools the runtime answers instead of the phone: through ask_user and hand_over the model reaches the person (the
 * runtime asks through its supervisor port), through finish_task it ends the task. The Executor never runs them, so
 * they are not action tools; their arguments are declared with zod like every tool's, never as hand-written JSON.
 */
export { ASK_USER, HAND_OVER } from '../../shared/action-words';

export const AskUserArgsSchema = z.strictObject({
  question: z.string().trim().min(1).max(500).describe('One short question the person can answer in a few words.'),
});

export const HandOverArgsSchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('What the person needs to do on the phone before you go on, e.g. "Log in to your account".'),
});

export const PERSON_TOOL_SPECS: readonly DecisionToolSpec[] = [
  {
    name: ASK_USER,
    description:
      'Ask the person one question when the goal needs information only they have (which contact, what text, which option). ' +
      'Their answer comes back in the next turn. Do not ask what the screen already shows.',
    inputSchema: toolInputSchema(AskUserArgsSchema),
  },
  {
    name: HAND_OVER,
    description:
      'Give the phone to the person for something only they should do: log in, enter a password or PIN, solve a captcha, ' +
      'approve a payment. The task waits until they hand it back; then you see the screen afresh.',
    inputSchema: toolInputSchema(HandOverArgsSchema),
  },
];

export const PERSON_TOOL_NAMES: readonly string[] = PERSON_TOOL_SPECS.map((spec) => spec.name);

export const FINISH_TASK = 'finish_task';

export const FinishTaskArgsSchema = z.strictObject({
  success: z.boolean().describe('true: the goal is reached. false: it cannot be reached.'),
  reason: z.string().describe('What was done, the answer, or why it cannot be done. One or two sentences.'),
});

export const FINISH_TASK_SPEC: DecisionToolSpec = {
  name: FINISH_TASK,
  description:
    'End the task. success=true when the goal is reached; reason says what was done, or gives the answer when ' +
    'the goal was a question. success=false when the goal cannot be reached (the app, item or option does not ' +
    'exist, it needs information you do not have, or you are stuck); reason says why.',
  inputSchema: toolInputSchema(FinishTaskArgsSchema),
};
