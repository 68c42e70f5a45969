import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { appName, appVersion } from '../shared/app-info';
import type { MethodName, MethodOutput, TaskOverrides } from '../shared/contract';
import { HISTORY_PAGE_TURNS, TaskOverridesSchema } from '../shared/contract';
import { plainReason } from '../shared/plain-words';
import { failureWordsOf } from '../shared/task-failure';
import { formatUsd } from '../shared/prices';
import { sceneToJson } from '../shared/scene';
import { actionWords, stepErrorFor } from '../shared/supervision-words';
import type { StepOutcome } from '../shared/action';
import type { PlannerInfo, TaskEvent, TaskEventOf } from '../shared/task';
import { capitalized, countOf, outcomeWord, plannerWords, tokensLabel } from '../shared/task-words';
import { finishedVerdict, taskVerdict, type TaskVerdict } from '../shared/verdict';
import type { AppServices } from '../app/create-app';
import { ACTION_TOOL_NAMES, ACTION_TOOLS } from '../core/tools/registry';
import type { ActionTool, ToolCatalog } from '../core/tools/tool';
import { AGENT_SCREENSHOT_LONG_EDGE, AgentSession } from './agent-session';
import { redactSecrets } from '@amc/provider-clients';
import { ENGLISH, type Words } from '../shared/i18n/translate';

/** The router's answer, or its plain-words reason as the tool's error (the same words as the app and the CLI). */
async function call<M extends MethodName>(app: AppServices, method: M, input: unknown): Promise<MethodOutput<M>> {
  const result = await app.router.call(method, input, { transport: 'web' });
  if (!result.ok) throw new Error(plainReason(result.error.message));
  return result.value as MethodOutput<M>;
}

// Every answer passes the redaction step (keys, tokens, URL passwords); "[redacted]" keeps JSON valid.
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: redactSecrets(value) }] });
const json = (value: object): CallToolResult => {
  const clean = redactSecrets(JSON.stringify(value, null, 2));
  return { content: [{ type: 'text', text: clean }], structuredContent: JSON.parse(clean) as Record<string, unknown> };
};
/**
 * A failed action: its error worded from its code in the server's language (English unless the terminal reads another),
 * and the outcome as structured content, with the English error and its code (`errorSaid`) for a client to word itself.
 */
const failedAction = (outcome: StepOutcome, tool: string, words: Words): CallToolResult => {
  const error = plainReason(outcome.error ?? ENGLISH.t('mcp:toolFailed', { tool }));
  const worded = stepErrorFor(outcome, words) ?? words.t('mcp:toolFailed', { tool });
  return { ...json({ ...outcome, error }), content: [{ type: 'text', text: redactSecrets(worded) }], isError: true };
};
const jsonResource = (uri: URL, value: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: redactSecrets(JSON.stringify(value, null, 2)) }] });

const serial = z.string().trim().min(1).max(300).describe('The phone, as list_devices names it (e.g. 127.0.0.1:5586)');

const ACT_DESCRIPTION =
  'Run one action tool by name (kept for older clients: each action is also its own tool, with its own arguments — ' +
  'prefer those). Element ids refer to your latest `observe` of that phone. The first action takes the phone for you ' +
  'until `run_goal` or `release_phone`.';

/** What a client may assume about a tool (MCP annotations): reading only, or changing the phone. */
const READS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Acts on the phone, whose apps may send, pay or delete: a client should ask before such a call. */
const ACTS_ON_PHONE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * What a client may assume about an action tool, from what the tool declares: a look or a wait only reads; a scroll
 * (a region's swipe) changes no data; opening an app changes no data and opening it again changes nothing more.
 */
export function hintsOf(tool: ActionTool): ToolAnnotations {
  if (!tool.actsOnPhone) return READS;
  if (tool.opensApp) return { ...ACTS_ON_PHONE, destructiveHint: false, idempotentHint: true };
  return tool.aim === 'region' ? { ...ACTS_ON_PHONE, destructiveHint: false } : ACTS_ON_PHONE;
}

/** The phone's action tools an agent gets as tools of their own (describe_screen is `observe`). */
const agentTools = (tools: ToolCatalog) => [...tools.values()].filter((tool) => tool.offeredTo.includes('agent'));

/** The arguments of run_goal's overrides, described for an agent choosing them. */
const OVERRIDE_WORDS: Record<keyof typeof TaskOverridesSchema.shape, string> = {
  planner: 'For this goal only: "ai" (a model plans) or "stub" (the built-in planner, which only looks at the screen and carries nothing out). Default: Settings.',
  provider: 'For this goal only: the model provider, "anthropic" or "openai". Default: Settings.',
  transport: 'For this goal only: "direct" (this computer calls the provider with its key) or "cloud-proxy" (through the Cloud Control Plane). Default: Settings.',
  model: "For this goal only: the model's id, e.g. \"claude-sonnet-4-6\". Default: Settings, else the provider's default model.",
};
const describedOverrides = Object.fromEntries(
  Object.entries(TaskOverridesSchema.shape).map(([name, schema]) => [name, schema.describe(OVERRIDE_WORDS[name as keyof typeof OVERRIDE_WORDS])]),
) as { [K in keyof typeof TaskOverridesSchema.shape]: (typeof TaskOverridesSchema.shape)[K] };

function progressMessage(event: Extract<TaskEvent, { type: 'step.planned' | 'step.executed' }>): string {
  if (event.type === 'step.planned') return `step ${event.step}: ${actionWords(event.tool, event.args)}${event.rationale ? ` — ${event.rationale}` : ''}`;
  return `step ${event.step}: ${event.outcome.ok ? outcomeWord('done') : `${outcomeWord('failed')}: ${plainReason(event.outcome.error ?? 'unknown reason')}`}`;
}

/**
 * run_goal's `status` per outcome: only "completed" means the goal was carried out, so an agent that reads the
 * status alone never takes a look at the screen, or a success claimed with no action, for a pass.
 */
const RUN_GOAL_STATUS: Record<TaskVerdict, string> = {
  done: 'completed',
  'done-not-verified': 'not_verified',
  'looked-only': 'looked_only',
  failed: 'failed',
  stopped: 'cancelled',
  interrupted: 'interrupted',
};

/** How a run_goal ended, in the words `amc run` and the app use: "Done (3 actions, 12 in · 3 out tokens): ...". */
function finishedWords(event: TaskEventOf<'task.finished'>, planner: PlannerInfo, outcome: TaskVerdict): string {
  const cost = event.costUsd == null ? '' : `, ${formatUsd(event.costUsd)}`;
  const totals = `${countOf(event.steps, 'action')}, ${tokensLabel(event.usage)}${cost}, ${plannerWords(planner)}`;
  const said = event.status === 'completed' ? event.result : failureWordsOf(event);
  const words = outcome === 'done-not-verified' ? [event.verification?.fact, said && `the model said: ${said}`].filter(Boolean).join('; ') : said;
  return `${capitalized(outcomeWord(outcome))} (${totals})${words ? `: ${words}` : ''}`;
}

/** The client's self-given name, made safe to show in another program's refusal (printable, short). */
function clientLabel(name: string | undefined): string {
  const printable = (name ?? '').replace(/[^\p{L}\p{N} ._@/+-]/gu, '').trim().slice(0, 60);
  return printable || 'an unnamed client';
}

/**
 * The app as an MCP server for one connected agent: its tools go through the app's router (devices, tasks,
 * history) and the same Observer and Executor tasks use, so an MCP agent gets the app's validation, locks
 * and plain-words errors. The agent acts as the planner here (observe/act), or hands a whole goal to the
 * app's configured planner (run_goal).
 */
/** `words`: the language of the server's own messages to the person and its errors (English when not given). */
export function createMcpServer(
  app: AppServices,
  options: { sessionId: string; idleTimeoutMs: number | null; words?: Words },
): { server: McpServer; session: AgentSession } {
  const words = options.words ?? ENGLISH;
  const { t } = words;
  const server = new McpServer({ name: appName, version: appVersion }, { capabilities: { logging: {} } });
  const session = new AgentSession(app.agent, {
    id: options.sessionId,
    client: () => clientLabel(server.server.getClientVersion()?.name),
    startedAt: Date.now(),
    idleTimeoutMs: options.idleTimeoutMs,
    words,
  });

  /**
   * The person behind the agent says yes or no through their MCP client (elicitation). A client that cannot ask
   * them gets a refusal saying so: the agent cannot say yes for them.
   */
  const askPerson = async (question: string, signal: AbortSignal): Promise<boolean> => {
    if (!server.server.getClientCapabilities()?.elicitation) {
      throw new Error(t('mcp:cannotAsk', { question }));
    }
    const answer = await server.server.elicitInput({ mode: 'form', message: t('mcp:allowOnPhone', { question }), requestedSchema: { type: 'object', properties: {} } }, { signal });
    return answer.action === 'accept';
  };

  server.registerTool(
    'list_devices',
    {
      title: 'List phones',
      description: 'The phones the adb server sees, with model, Android version, state, and what to do when one is not ready.',
      inputSchema: {},
      annotations: READS,
    },
    async () => json(await call(app, 'devices.list', {})),
  );

  server.registerTool(
    'start_demo_phone',
    {
      title: 'Start the demo phone',
      description: 'Start the built-in demo phone (a simulated Android 14 phone) and connect it; answers with its serial.',
      inputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async () => json(await call(app, 'devices.startDemo', {})),
  );

  const observeOnce = async (serial: string, screenshot: boolean, signal: AbortSignal) => {
    const observation = await session.observe(serial, { screenshot, signal });
    if (!observation.scene) throw new Error(t('mcp:unreadable', { reason: plainReason(observation.sceneError ?? t('mcp:unknownReason')) }));
    return { ...observation, scene: observation.scene };
  };

  server.registerTool(
    'observe',
    {
      title: "Read the phone's screen",
      description:
        'Read the phone once: the Scene (the screen\'s UI elements with ids, text and bounds) exactly as the app\'s planner receives it, ' +
        'as text and as structured content. With screenshot=true the screen image comes along too — only then, since you are the planner for this phone.',
      inputSchema: { serial, screenshot: z.boolean().optional().describe('Also return the screen as an image (default false)') },
      annotations: READS,
    },
    async ({ serial, screenshot }, extra) => {
      const observation = await observeOnce(serial, screenshot ?? false, extra.signal);
      const sceneText = sceneToJson(observation.scene);
      const content: CallToolResult['content'] = [{ type: 'text', text: sceneText }];
      if (screenshot && observation.screenshot) {
        const shot = observation.screenshot;
        content.push({ type: 'image', data: Buffer.from(shot.bytes).toString('base64'), mimeType: shot.mediaType });
      } else if (screenshot) {
        content.push({ type: 'text', text: plainReason(observation.screenshotError ?? 'No screenshot: unknown reason') });
      }
      return { content, structuredContent: JSON.parse(sceneText) as Record<string, unknown> };
    },
  );

  server.registerTool(
    'screenshot',
    {
      title: 'Take a screenshot',
      description: `The phone's screen as an image (the long edge scaled to ${AGENT_SCREENSHOT_LONG_EDGE} pixels at most). Element ids come from \`observe\`, not from the image.`,
      inputSchema: { serial },
      annotations: READS,
    },
    async ({ serial }, extra) => {
      const { screenshot, screenshotError } = await observeOnce(serial, true, extra.signal);
      if (!screenshot) throw new Error(plainReason(screenshotError ?? t('mcp:noScreenshot')));
      return { content: [{ type: 'image', data: Buffer.from(screenshot.bytes).toString('base64'), mimeType: screenshot.mediaType }] };
    },
  );

  server.registerTool(
    'screen_info',
    {
      title: 'Screen size and orientation',
      description: "The screen's size in device pixels (as it is turned now), its orientation, the app in front and whether the keyboard shows.",
      inputSchema: { serial },
      annotations: READS,
    },
    async ({ serial }, extra) => {
      const { width, height, orientation, rotation, package: app, activity, keyboardShown } = (await observeOnce(serial, false, extra.signal)).scene.screen;
      return json({ width, height, orientation, rotation: rotation ?? 0, foregroundApp: app, ...(activity && { activity }), keyboardShown });
    },
  );

  server.registerTool(
    'list_apps',
    {
      title: 'List installed apps',
      description: 'The package names of the apps installed on the phone; `launch_app` takes one of these, or an app\'s name as the home screen shows it.',
      inputSchema: { serial },
      annotations: READS,
    },
    async ({ serial }, extra) => {
      await app.agent.checkReady(serial);
      return json({ apps: (await app.agent.installedApps(serial, extra.signal)).sort() });
    },
  );

  /** Every action, whichever tool it came by, goes this one way: the confirmation setting, the phone's lock, the Executor. */
  const runAction = async (serial: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> => {
    const mode = (await call(app, 'settings.get', {})).effective.supervision.confirmation;
    const outcome = await session.act(serial, { name: tool, args }, { signal, confirmation: { mode, ask: (question) => askPerson(question, signal) } });
    if (!outcome.ok) return failedAction(outcome, tool, words);
    return json(outcome);
  };

  for (const action of agentTools(ACTION_TOOLS)) {
    const argsSchema = action.schema as z.ZodObject;
    server.registerTool(
      action.name,
      {
        title: action.title,
        description: `${action.description} The first action takes the phone for you until \`run_goal\` or \`release_phone\`.`,
        inputSchema: z.strictObject({ serial, ...argsSchema.shape }),
        annotations: hintsOf(action),
      },
      async ({ serial, ...args }, extra) => runAction(serial as string, action.name, args, extra.signal),
    );
  }

  server.registerTool(
    'act',
    {
      title: 'Run an action by name',
      description: ACT_DESCRIPTION,
      inputSchema: {
        serial,
        tool: z.enum(ACTION_TOOL_NAMES as [string, ...string[]]).describe('The action tool, e.g. "tap"'),
        args: z.record(z.string(), z.unknown()).optional().describe('The arguments the tool of that name takes, e.g. {"element_id": "e3"}'),
      },
      annotations: ACTS_ON_PHONE,
    },
    async ({ serial, tool, args }, extra) => runAction(serial, tool, args ?? {}, extra.signal),
  );

  server.registerTool(
    'release_phone',
    {
      title: 'Release the phone',
      description: 'Hand a phone you took with an action back, so other agents, the app and `amc run` may drive it.',
      inputSchema: { serial },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ serial }) => text(await session.release(serial)),
  );

  server.registerTool(
    'run_goal',
    {
      title: 'Carry out a whole goal',
      description:
        "Carry out a whole goal on the phone with the app's configured planner (its model, provider and transport), turn by turn, " +
        'reporting each turn as a progress notification. Cancelling the request stops the task. Answers with how it ended: ' +
        'status "completed" only when the goal was carried out; "looked_only" (the built-in planner acts on nothing), ' +
        '"not_verified" (success claimed with no action taken), "failed" and "cancelled" are errors.',
      inputSchema: {
        serial,
        goal: z.string().trim().min(1).max(2000).describe('What to do, in plain words'),
        max_steps: z.number().int().min(1).max(200).optional().describe('The most turns the planner may take (default: Settings, 30).'),
        ...describedOverrides,
      },
      annotations: ACTS_ON_PHONE,
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
              const outcome = finishedVerdict({ ...event, planner: started.planner });
              const answer = {
                taskId: started.id,
                status: RUN_GOAL_STATUS[outcome],
                verdict: outcome,
                outcome: outcomeWord(outcome),
                summary: finishedWords(event, started.planner, outcome),
                steps,
                result,
                failureReason: failureReason && failureWordsOf(event),
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
      title: 'Task status',
      description:
        'A task as far as it has got (its turns, status, result): the given task, else the one running on `serial` (or the latest started). ' +
        `A task from history comes with its latest ${HISTORY_PAGE_TURNS} turns; when it has more, \`page\` says how many, and \`from_turn\` reads earlier ones a page at a time.`,
      inputSchema: {
        task_id: z.string().trim().min(1).max(200).optional().describe('A task id from run_goal or task_history'),
        serial: serial.optional(),
        from_turn: z
          .number()
          .int()
          .min(0)
          .max(1_000_000)
          .optional()
          .describe(`With task_id: the turns after this many (0: from the first), at most ${HISTORY_PAGE_TURNS}, instead of the whole task`),
      },
      annotations: READS,
    },
    async ({ task_id, serial, from_turn }) => {
      // The verdict beside the record: how the task ended in the one vocabulary every reader shares (null while it runs).
      if (task_id && from_turn !== undefined) return json(await call(app, 'history.turns', { id: task_id, from: from_turn }));
      if (task_id) {
        const task = await call(app, 'history.get', { id: task_id });
        return json({ ...task, verdict: taskVerdict(task) });
      }
      const current = await call(app, 'tasks.current', serial ? { serial } : {});
      return json({ ...current, verdict: current.task && taskVerdict(current.task) });
    },
  );

  server.registerTool(
    'task_history',
    {
      title: 'Task history',
      description:
        'The most recent tasks (newest first): goal, phone, status, steps, tokens, time; and every history file that could not be read (damaged), with why and what to do.',
      inputSchema: { limit: z.number().int().min(1).max(500).optional().describe('How many tasks, newest first (default 20)') },
      annotations: READS,
    },
    async ({ limit }) => {
      const { tasks, damaged } = await call(app, 'history.list', {});
      // Damaged files are never hidden: an agent reading history learns that part of it could not be read.
      return json({ tasks: tasks.slice(0, limit ?? 20), damaged });
    },
  );

  server.registerResource(
    'history',
    'amc://history',
    { description: 'Every task in history (newest first), as JSON.', mimeType: 'application/json' },
    async (uri) => jsonResource(uri, await call(app, 'history.list', {})),
  );

  const listTasks = async (suffix: string, mimeType: string) => ({
    resources: (await call(app, 'history.list', {})).tasks.slice(0, 50).map((task) => ({ uri: `amc://tasks/${encodeURIComponent(task.id)}${suffix}`, name: task.goal, mimeType })),
  });
  const taskId = (value: string | string[] | undefined) => decodeURIComponent(String(Array.isArray(value) ? value[0] : value));

  server.registerResource(
    'task',
    new ResourceTemplate('amc://tasks/{id}', { list: () => listTasks('', 'application/json') }),
    { description: 'One task from history, every turn included (Scene, action, rationale, outcome), as JSON.', mimeType: 'application/json' },
    // The app's JSON download: the whole record (history.get gives a long task's latest page).
    async (uri, { id }) => {
      const whole = await call(app, 'history.exportJson', { id: taskId(id) });
      return { contents: [{ uri: uri.href, mimeType: whole.mediaType, text: redactSecrets(whole.text) }] };
    },
  );

  server.registerResource(
    'task-report',
    new ResourceTemplate('amc://tasks/{id}/report', { list: () => listTasks('/report', 'text/html') }),
    { description: "One task's report: the same self-contained HTML the app exports.", mimeType: 'text/html' },
    async (uri, { id }) => {
      const report = await call(app, 'history.exportHtml', { id: taskId(id) });
      return { contents: [{ uri: uri.href, mimeType: report.mediaType, text: redactSecrets(report.text) }] };
    },
  );

  return { server, session };
}
