import type { DecisionToolSpec } from '@amc/provider-clients';
import { pressKey } from './actions/keys';
import { launchApp } from './actions/launch-app';
import { clearApp, stopApp } from './actions/app-state';
import { openUrl } from './actions/open-url';
import { describeScreen, wait } from './actions/observe';
import { doubleTap, longPress, swipe, tap } from './actions/touch';
import { eraseText, hideKeyboard } from './actions/flow-keys';
import { typeText } from './actions/type-text';
import type { ActionTool, ToolCatalog } from './tool';

/**
 * Every action tool, in the order the model sees them. Everything that lists tools (the Executor, `amc act`,
 * the planner's tool list, the report) reads this registry and the tools' own flags.
 */
const TOOLS: readonly ActionTool[] = [tap, longPress, swipe, typeText, pressKey, launchApp, openUrl, wait, describeScreen, stopApp, clearApp, doubleTap, eraseText, hideKeyboard];

export const ACTION_TOOLS: ToolCatalog = new Map(TOOLS.map((tool) => [tool.name, tool]));
export const ACTION_TOOL_NAMES: readonly string[] = TOOLS.map((tool) => tool.name);

/** Every action tool as a provider-neutral spec (the runtime adds `finish_task`). */
export const ACTION_TOOL_SPECS: readonly DecisionToolSpec[] = TOOLS.map((tool) => tool.spec);
/** The action tools the model is offered. */
export const MODEL_TOOL_SPECS: readonly DecisionToolSpec[] = TOOLS.filter((tool) => tool.offeredTo.includes('model')).map((tool) => tool.spec);

/** The registry's tools plus `extra` (a tool added where it is used, e.g. in a test), each by name. */
export function catalogWith(...extra: readonly ActionTool[]): ToolCatalog {
  return new Map([...TOOLS, ...extra].map((tool) => [tool.name, tool]));
}

/** Whether a turn's tool acts on the phone (so "the screen did not change" is worth saying about it). */
export function toolActsOnPhone(name: string, tools: ToolCatalog = ACTION_TOOLS): boolean {
  return tools.get(name)?.actsOnPhone ?? false;
}
