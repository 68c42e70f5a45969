import { z } from 'zod';
import type { DecisionToolSpec } from '@amc/provider-clients';
import { ASK_USER, HAND_OVER } from '../../shared/action-words';
import { toolInputSchema } from './tool';

/**
 * Tools through which the model reaches the person instead of the phone. The runtime handles them (through its
 * supervisor port); the Executor never runs them, so they are not action tools.
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
