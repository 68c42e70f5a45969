import type { ToolCallingClient } from '@amc/provider-clients';
import type { FlowChecks } from './flow-checks-port';
import { askModel } from './ask-ai';
import { checkAssertion } from './scene-assertions';

export interface FlowChecksOptions {
  /** The configured model's client; null when the AI planner is off, so no model is called (seed D6). */
  client: ToolCallingClient | null;
}

/** Why an ask_ai step cannot run with the AI planner off. */
export const ASK_NEEDS_A_MODEL = 'an ask_ai step needs a model: turn the AI planner on in Settings (or set AI_PLANNER_ENABLED=true)';

/** The FlowChecks port for a flow run: asserts judged in code, questions answered by the configured model. */
export function createFlowChecks({ client }: FlowChecksOptions): FlowChecks {
  return {
    assert: checkAssertion,
    async ask(scene, ask, signal) {
      if (!client) throw new Error(ASK_NEEDS_A_MODEL);
      return askModel(client, scene, ask, signal);
    },
  };
}
