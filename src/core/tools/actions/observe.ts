import { z } from 'zod';
import { sleep } from '../../device/errors';
import { defineTool } from '../tool';

export const MAX_WAIT_SECONDS = 10;

export const WaitArgsSchema = z.strictObject({
  seconds: z.number().min(0.1).max(MAX_WAIT_SECONDS).describe(`How long to wait, 0.1 to ${MAX_WAIT_SECONDS} seconds.`),
});

export const wait = defineTool({
  name: 'wait',
  schema: WaitArgsSchema,
  description: 'Do nothing for a few seconds, e.g. while something loads; the screen is observed again after.',
  title: 'Wait',
  aim: 'none',
  offeredTo: ['model', 'agent'],
  effects: { target: 'nothing' },
  async run(args, context) {
    await sleep(args.seconds * 1000, context.signal);
    return undefined;
  },
});

export const describeScreen = defineTool({
  name: 'describe_screen',
  schema: z.strictObject({}),
  description: 'Take no action this turn; just observe the screen again.',
  // The model sees the screen every turn anyway; this is the built-in planner's one step.
  title: 'Describe the screen',
  aim: 'none',
  offeredTo: [],
  effects: { target: 'nothing' },
  run: async () => undefined,
});
