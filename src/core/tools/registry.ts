import type { DecisionToolSpec } from '@amc/provider-clients';
import { pressKey } from './actions/keys';
import { launchApp } from './actions/launch-app';
import { clearApp, stopApp } from './actions/app-state';
import { openUrl } from './actions/open-url';
import { describeScreen, wait } from './actions/observe';
import { doubleTap, longPress, swipe, tap } from './actions/touch';
import { eraseText, hideKeyboard } from './actions/flow-keys';
import { typeText } from './actions/type-text';
import { askUser, finishTask, handOver } from './person-tools';
import type { ActionTool, CatalogTool, ToolCatalog } from './tool';

/**
 * The tool catalog, in the order the model sees it: the phone's tools, which the Executor runs, then the tools
 * the runtime answers (a question, a hand-over, the task's end). Everything that lists tools (the Executor,
 * `amc act`, the model's tool list, MCP, flows, the report) reads this registry and the tools' own facts.
 */
const PHONE_TOOLS: readonly ActionTool[] = [tap, longPress, swipe, typeText, pressKey, launchApp, openUrl, wait, describeScreen, stopApp, clearApp, doubleTap, eraseText, hideKeyboard];
const RUNTIME_TOOLS: readonly CatalogTool[] = [askUser, handOver, finishTask];

/** Every tool of the catalog, by name. */
export const TOOL_CATALOG: ReadonlyMap<string, CatalogTool> = new Map([...PHONE_TOOLS, ...RUNTIME_TOOLS].map((tool) => [tool.name, tool]));

/** The tools the Executor runs on the phone (the ones a flow may write as steps). */
export const ACTION_TOOLS: ToolCatalog = new Map(PHONE_TOOLS.map((tool) => [tool.name, tool]));
export const ACTION_TOOL_NAMES: readonly string[] = PHONE_TOOLS.map((tool) => tool.name);
export const ACTION_TOOL_SPECS: readonly DecisionToolSpec[] = PHONE_TOOLS.map((tool) => tool.spec);

/** The tools the model is offered, as provider-neutral specs: what every provider's tool list is made of. */
export const MODEL_TOOL_SPECS: readonly DecisionToolSpec[] = [...TOOL_CATALOG.values()].filter((tool) => tool.offeredTo.includes('model')).map((tool) => tool.spec);

/** The registry's phone tools plus `extra` (a tool added where it is used, e.g. in a test), each by name. */
export function catalogWith(...extra: readonly ActionTool[]): ToolCatalog {
  return new Map([...PHONE_TOOLS, ...extra].map((tool) => [tool.name, tool]));
}

/** Whether a turn's tool acts on the phone (so "the screen did not change" is worth saying about it). */
export function toolActsOnPhone(name: string, tools: ToolCatalog = ACTION_TOOLS): boolean {
  return tools.get(name)?.actsOnPhone ?? false;
}
