import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { appName, appVersion } from '../shared/app-info';
import type { MethodName, MethodOutput, TaskOverrides } from '../shared/contract';
import { TaskOverridesSchema } from '../shared/contract';
import { plainReason } from '../shared/plain-words';
import { formatUsd } from '../shared/prices';
import { sceneToJson } from '../shared/scene';
import { actionWords } from '../shared/supervision-words';
import type { PlannerInfo, TaskEvent, TaskEventOf } from '../shared/task';
import { capitalized, countOf, finishedOutcome, OUTCOME_WORDS, plannerWords, taskOutcomeWord, tokensLabel, type FinishedOutcome } from '../shared/task-words';
import type { AppServices } from '../main/app/create-app';
import { ACTION_TOOL_NAMES, ACTION_TOOL_SPECS } from '../main/tools/registry';
import { AgentSession } from './agent-session';

/** The router's answer, or its plain-words reason as the tool's error (the same words as the app and the CLI). */
async function call<M extends MethodName>(app: AppServices, method: M, input: unknown): Promise<MethodOutput<M>> {
  const result = await app.router.call(method, input, { transport: 'web' });
  if (!result.ok) throw new Error(plainReason(result.error.message));
  return result.value as MethodOutput<M>;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const json = (value: object): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> });

const serial = z.string().trim().min(1).max(300).describe('The phone, as list_devices names it (e.g. 127.0.0.1:5586)');

const ACT_DESCRIPTION = [
  'Run one action on the phone through the app\'s Executor, exactly as the app\'s own planner would. Element ids refer to your latest `observe` of that phone (it observes first when you never did). The first action takes the phone for you: while you hold it, no other agent, app task or `amc run` can drive it; `run_goal` or `release_phone` hands it back. Tools and their arguments:',
  ...ACTION_TOOL_SPECS.map((spec) => `- ${spec.name}: ${spec.description} Arguments (JSON Schema): ${JSON.stringify(spec.inputSchema)}`),
].join('\n');

function progressMessage(event: Extract<TaskEvent, { type: 'step.planned' | 'step.executed' }>): string {
  if (event.type === 'step.planned') return `step ${event.step}: ${actionWords(event.tool, event.args)}${event.rationale ? ` — ${event.rationale}` : ''}`;
  return `step ${event.step}: ${event.outcome.ok ? OUTCOME_WORDS.done : `${OUTCOME_WORDS.failed}: ${plainReason(event.outcome.error ?? 'unknown reason')}`}`;
}

/**
 * run_goal's `status` per outcome: only "completed" means the goal was carried out, so an agent that reads the
 * status alone never takes a look at the screen, or a success claimed with no action, for a pass.
 */
const RUN_GOAL_STATUS: Record<FinishedOutcome, string> = {
  done: 'completed',
  'not-verified': 'not_verified',
  'looked-only': 'looked_only',
  failed: 'failed',
  stopped: 'cancelled',
};

const outcomeWords = (outcome: FinishedOutcome, event: TaskEventOf<'task.finished'>, planner: PlannerInfo) =>
  outcome === 'not-verified' ? 'done, not verified' : taskOutcomeWord({ status: event.status, planner });

/** How a run_goal ended, in the words `amc run` and the app use: "Done (3 actions, 12 in · 3 out tokens): ...". */
function finishedWords(event: TaskEventOf<'task.finished'>, planner: PlannerInfo, outcome: FinishedOutcome): string {
  const cost = event.costUsd == null ? '' : `, ${formatUsd(event.costUsd)}`;
  const totals = `${countOf(event.steps, 'action')}, ${tokensLabel(event.usage)}${cost}, ${plannerWords(planner)}`;
  const said = event.status === 'completed' ? event.result : event.failureReason && plainReason(event.failureReason);
  const words = outcome === 'not-verified' ? [event.verification?.fact, said && `the model said: ${said}`].filter(Boolean).join('; ') : said;
  return `${capitalized(outcomeWords(outcome, event, planner))} (${totals})${words ? `: ${words}` : ''}`;
}

/**
 * The app as an MCP server for one connected agent: its tools go through the app's router (devices, tasks,
 * history) and the same Observer and Executor tasks use, so an MCP agent gets the app's validation, locks
 * and plain-words errors. The agent acts as the planner here (observe/act), or hands a whole goal to the
 * app's configured planner (run_goal).
 */
export function createMcpServer(app: AppServices, sessionId: string): { server: McpServer; session: AgentSession } {
  const server = new McpServer({ name: appName, version: appVersion }, { capabilities: { logging: {} } });
  const session = new AgentSession(app.agent, sessionId);

  /**
   * The person behind the agent says yes or no through their MCP client (elicitation). A client that cannot ask
   * them gets a refusal saying so: the agent cannot say yes for them.
   */
  const askPerson = async (question: string, signal: AbortSignal): Promise<boolean> => {
    if (!server.server.getClientCapabilities()?.elicitation) {
      throw new Error(
        `Not done: ${question}. Settings ask for a person's yes before it, and this MCP client cannot ask its person (no elicitation support). ` +
          'Let the person do it on the phone, or change Settings → Confirm actions.',
      );
    }
    const answer = await server.server.elicitInput({ mode: 'form', message: `Allow this action on the phone? ${question}`, requestedSchema: { type: 'object', properties: {} } }, { signal });
    return answer.action === 'accept';
  };

  server.registerTool(
    'list_devices',
    { description: 'The phones the adb server sees, with model, Android version, state, and what to do when one is not ready.', inputSchema: {} },
    async () => json(await call(app, 'devices.list', {})),
  );

  server.registerTool(
    'start_demo_phone',
    { description: 'Start the built-in demo phone (a simulated Android 14 phone) and connect it; answers with its serial.', inputSchema: {} },
    async () => json(await call(app, 'devices.startDemo', {})),
  );

  server.registerTool(
    'observe',
    {
      description:
        'Read the phone once: the Scene (the screen\'s UI elements with ids, text and bounds) exactly as the app\'s planner receives it. ' +
        'With screenshot=true the screen image comes along too — only then, since you are the planner for this phone.',
      inputSchema: { serial, screenshot: z.boolean().optional().describe('Also return the screen as an image (default false)') },
    },
    async ({ serial, screenshot }, extra) => {
      const observation = await session.observe(serial, { screenshot: screenshot ?? false, signal: extra.signal });
      if (!observation.scene) throw new Error(`The screen could not be read: ${plainReason(observation.sceneError ?? 'unknown reason')}`);
      const content: CallToolResult['content'] = [{ type: 'text', text: sceneToJson(observation.scene) }];
      if (screenshot && observation.screenshot) {
        const shot = observation.screenshot;
        content.push({ type: 'image', data: Buffer.from(shot.bytes).toString('base64'), mimeType: shot.mediaType });
      } else if (screenshot) {
        content.push({ type: 'text', text: plainReason(observation.screenshotError ?? 'No screenshot: unknown reason') });
      }
      return { content };
    },
  );

  server.registerTool(
    'act',
    {
      description: ACT_DESCRIPTION,
      inputSchema: {
        serial,
        tool: z.enum(ACTION_TOOL_NAMES as [string, ...string[]]).describe('The action tool'),
        args: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments, e.g. {\"element_id\": \"e3\"}"),
      },
    },
    async ({ serial, tool, args }, extra) => {
      const mode = (await call(app, 'settings.get', {})).effective.supervision.confirmation;
      const outcome = await session.act(serial, { name: tool, args: args ?? {} }, { signal: extra.signal, confirmation: { mode, ask: (question) => askPerson(question, extra.signal) } });
      if (!outcome.ok) throw new Error(plainReason(outcome.error ?? `${tool} failed`));
      return json(outcome);
    },
  );

  server.registerTool(
    'release_phone',
    { description: 'Hand a phone you took with `act` back, so other agents, the app and `amc run` may drive it.', inputSchema: { serial } },
    async ({ serial }) => text((await session.release(serial)) ? `Released ${serial}.` : `You did not hold ${serial}.`),
  );

  server.registerTool(
    'run_goal',
    {
      description:
        "Carry out a whole goal on the phone with the app's configured planner (its model, provider and transport), turn by turn, " +
        'reporting each turn as a progress notification. Cancelling the request stops the task. Answers with how it ended.',
      inputSchema: {
        serial,
        goal: z.string().trim().min(1).max(2000).describe('What to do, in plain words'),
        max_steps: z.number().int().min(1).max(200).optional(),
        ...TaskOverridesSchema.shape,
      },
    },
    async ({ serial, goal, max_steps, ...overrides }, extra) => {
      // This agent's own hold on the phone would refuse its own task.
      await session.release(serial);
      const events: TaskEvent[] = [];
      let wake: () => void = () => undefined;
      const unsubscribe = app.events.subscribe((name, payload) => {
        if (name !== 'task.event') return;
        events.push(payload as TaskEvent);
        wake();
      });
      try {
        const started = await call(app, 'tasks.run', {
          serial,
          goal,
          ...(max_steps !== undefined && { maxSteps: max_steps }),
          overrides: Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as TaskOverrides,
        });
        const stop = () => void app.router.call('tasks.stop', { taskId: started.id }, { transport: 'web' });
        extra.signal.addEventListener('abort', stop, { once: true });
        const progressToken = extra._meta?.progressToken;
        let seen = 0;
        for (;;) {
          const mine = events.slice(seen).filter((event) => event.taskId === started.id);
          seen = events.length;
          for (const event of mine) {
            if (event.type === 'task.finished') {
              extra.signal.removeEventListener('abort', stop);
              const { steps, result, failureReason, usage, costUsd, durationMs } = event;
              const outcome = finishedOutcome({ ...event, planner: started.planner });
              const answer = {
                taskId: started.id,
                status: RUN_GOAL_STATUS[outcome],
                outcome: outcomeWords(outcome, event, started.planner),
                summary: finishedWords(event, started.planner, outcome),
                steps,
                result,
                failureReason: failureReason && plainReason(failureReason),
                usage,
                costUsd: costUsd ?? null,
                durationMs,
              };
              return { ...json(answer), isError: outcome !== 'done' };
            }
            if (progressToken !== undefined && (event.type === 'step.planned' || event.type === 'step.executed')) {
              await extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress: event.step, total: started.maxSteps, message: progressMessage(event) },
              });
            }
          }
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        unsubscribe();
      }
    },
  );

  server.registerTool(
    'task_status',
    {
      description: 'A task as far as it has got (its turns, status, result): the given task, else the one running on `serial` (or the latest started).',
      inputSchema: { task_id: z.string().trim().min(1).max(200).optional(), serial: serial.optional() },
    },
    async ({ task_id, serial }) => {
      if (task_id) return json(await call(app, 'history.get', { id: task_id }));
      return json(await call(app, 'tasks.current', serial ? { serial } : {}));
    },
  );

  server.registerTool(
    'task_history',
    { description: 'The most recent tasks (newest first): goal, phone, status, steps, tokens, time.', inputSchema: { limit: z.number().int().min(1).max(500).optional() } },
    async ({ limit }) => {
      const { tasks } = await call(app, 'history.list', {});
      return json({ tasks: tasks.slice(0, limit ?? 20) });
    },
  );

  server.registerResource(
    'history',
    'amc://history',
    { description: 'Every task in history (newest first), as JSON.', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await call(app, 'history.list', {}), null, 2) }] }),
  );

  const listTasks = async (suffix: string, mimeType: string) => ({
    resources: (await call(app, 'history.list', {})).tasks.slice(0, 50).map((task) => ({ uri: `amc://tasks/${encodeURIComponent(task.id)}${suffix}`, name: task.goal, mimeType })),
  });
  const taskId = (value: string | string[] | undefined) => decodeURIComponent(String(Array.isArray(value) ? value[0] : value));

  server.registerResource(
    'task',
    new ResourceTemplate('amc://tasks/{id}', { list: () => listTasks('', 'application/json') }),
    { description: 'One task from history, every turn included (Scene, action, rationale, outcome), as JSON.', mimeType: 'application/json' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await call(app, 'history.get', { id: taskId(id) }), null, 2) }] }),
  );

  server.registerResource(
    'task-report',
    new ResourceTemplate('amc://tasks/{id}/report', { list: () => listTasks('/report', 'text/html') }),
    { description: "One task's report: the same self-contained HTML the app exports.", mimeType: 'text/html' },
    async (uri, { id }) => {
      const report = await call(app, 'history.exportHtml', { id: taskId(id) });
      return { contents: [{ uri: uri.href, mimeType: report.mediaType, text: report.text }] };
    },
  );

  return { server, session };
}
