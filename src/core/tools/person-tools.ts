import { z } from 'zod';
import { ASK_USER, FINISH_TASK, HAND_OVER } from '../../shared/tool-vocabulary';
import { defineRuntimeTool } from './tool';

/**
 * Tools the runtime answers instead of the phone: through ask_user and hand_over the model reaches the person (the
 * runtime asks through its supervisor port), through finish_task it ends the task. They are tools of the same
 * catalog as the phone's (registry.ts), declared the same way; the Executor never runs them.
 */

export const AskUserArgsSchema = z.strictObject({
  question: z.string().trim().min(1).max(500).describe('One short question the person can answer in a few words.'),
});

export const askUser = defineRuntimeTool({
  name: ASK_USER,
  title: 'Ask the person',
  description:
    'Ask the person one question when the goal needs information only they have (which contact, what text, which option). ' +
    'Their answer comes back in the next turn. Do not ask what the screen already shows.',
  aim: 'none',
  offeredTo: ['model'],
  schema: AskUserArgsSchema,
});

export const HandOverArgsSchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('What the person needs to do on the phone before you go on, e.g. "Log in to your account".'),
});

export const handOver = defineRuntimeTool({
  name: HAND_OVER,
  title: 'Hand the phone over',
  description:
    'Give the phone to the person for something only they should do: log in, enter a password or PIN, solve a captcha, ' +
    'approve a payment. The task waits until they hand it back; then you see the screen afresh.',
  aim: 'none',
  offeredTo: ['model'],
  schema: HandOverArgsSchema,
});

export const FinishTaskArgsSchema = z.strictObject({
  success: z.boolean().describe('true: the goal is reached. false: it cannot be reached.'),
  reason: z.string().describe('What was done, the answer, or why it cannot be done. One or two sentences.'),
});

export const finishTask = defineRuntimeTool({
  name: FINISH_TASK,
  title: 'Finish the task',
  description:
    'End the task. success=true when the goal is reached; reason says what was done, or gives the answer when ' +
    'the goal was a question. success=false when the goal cannot be reached (the app, item or option does not ' +
    'exist, it needs information you do not have, or you are stuck); reason says why.',
  aim: 'none',
  offeredTo: ['model'],
  schema: FinishTaskArgsSchema,
});
