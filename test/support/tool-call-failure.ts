import { expect } from 'vitest';
import { ToolCallUnavailable } from '@amc/provider-clients';

/** Awaits a decision that must fail, and returns its ToolCallUnavailable for the test to inspect. */
export async function failureOf(promise: Promise<unknown>): Promise<ToolCallUnavailable> {
  const error = await promise.then(
    () => {
      throw new Error('expected the decision to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolCallUnavailable);
  return error as ToolCallUnavailable;
}
