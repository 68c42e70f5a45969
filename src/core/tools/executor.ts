import type { StepOutcome, StepTarget, ToolCall } from '../../shared/action';
import { boundsCenter, elementLabel, type Scene } from '../../shared/scene';
import type { AdbClient } from '../device/adb-client';
import { PhoneFacts } from '../device/android/phone-facts';
import { AbortError, AdbError, isAbortError, isPhoneUnreachable, sleep, throwIfAborted } from '../device/errors';
import { isAllowedApp } from './app-resolver';
import { ACTION_TOOLS } from './registry';
import { checkOnScreen, elementAt, findElement } from './scene-targets';
import type { TypingMethod } from '../../shared/settings-catalog';
import type { PhoneHelpers } from '../device/helpers/phone-helpers';
import { InvalidCall, invalidCall, type AimArgs, type ScreenSize, type ToolCatalog, type ToolContext, type TypingPort } from './tool';
import { say } from '../../shared/said';

export interface ExecutorOptions {
  /** adb attempts per command for failures that certainly did not reach the phone (default 3). */
  maxAttempts?: number;
  /** First backoff delay, doubled per retry up to maxBackoffMs (defaults 200 ms and 2 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Per adb command (default 15 s). */
  commandTimeoutMs?: number;
  /** How text `input text` cannot type is typed: Settings' method and yadb; without it, ADBKeyBoard only. */
  typing?: { method(): Promise<TypingMethod>; helpers: Pick<PhoneHelpers, 'ensure'> };
  /** The tools it runs (default: the registry's). */
  tools?: ToolCatalog;
}

const NO_YADB = { ready: false, reason: 'yadb is not set up for this command' } as const;

export interface ExecutionContext {
  serial: string;
  /** The Scene the planner saw this turn: element ids and the screen bounds are checked against it. */
  scene: Scene | null;
  /** Aborting stops the command in flight; nothing further is sent and `execute` rejects with AbortError. */
  signal?: AbortSignal;
  /** The task's app allow-list: a call whose declared effect opens any other app is refused (absent: any app). */
  allowedApps?: readonly string[];
}

/** The one adb capability the Executor needs (an AdbClient). */
export type CommandRunner = Pick<AdbClient, 'exec'>;

/**
 * Runs one tool call on the phone: finds the tool in the registry, which checks the arguments against its schema
 * and the turn's Scene, resolves element ids to their centres and sends the adb commands (retrying transient adb
 * failures with bounded exponential backoff). Failures are outcomes, not exceptions; only an abort rejects.
 */
export class Executor {
  private readonly facts: PhoneFacts;

  constructor(
    private readonly adb: CommandRunner,
    private readonly options: ExecutorOptions = {},
  ) {
    this.facts = PhoneFacts.of(adb);
  }

  async execute(call: ToolCall, context: ExecutionContext): Promise<StepOutcome> {
    const start = performance.now();
    const run = new CommandRun(this.adb, context, this.options);
    try {
      throwIfAborted(context.signal);
      const tools = this.options.tools ?? ACTION_TOOLS;
      const tool = tools.get(call.name);
      if (!tool) throw new InvalidCall(`Unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(', ')}.`);
      const target = await tool.execute(call.args, this.toolContext(context, run));
      return { ok: true, attempts: run.attempts, ...(run.retries > 0 && { retries: run.retries }), durationMs: elapsed(start), ...(target && { target }), ...(run.app && { app: run.app }) };
    } catch (error) {
      if (isAbortError(error) || context.signal?.aborted) throw new AbortError('The action was cancelled');
      // A phone that cannot be reached may come back as another (a reconnect, another phone at its address): its facts go.
      if (isPhoneUnreachable(error)) this.facts.forget(context.serial);
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, error: reason, ...(error instanceof InvalidCall && error.said && { errorSaid: error.said }), attempts: run.attempts, ...(run.retries > 0 && { retries: run.retries }), durationMs: elapsed(start), ...(run.target && { target: run.target }) };
    }
  }

  private toolContext(context: ExecutionContext, run: CommandRun): ToolContext {
    return {
      scene: context.scene,
      signal: context.signal,
      send: (command) => run.send(command),
      query: (command) => run.query(command),
      aimAt: (args, tool) => this.aimAt(args, context, tool),
      screenSize: () => this.screenSize(context, run),
      setTarget: (target) => (run.target = target),
      opening: (app) => {
        const allowed = context.allowedApps;
        if (allowed && !isAllowedApp(app, allowed)) throw new InvalidCall(`${app} is not among this task's allowed apps (${allowed.join(', ')}); it was not opened.`, { code: 'step.notAllowedApp', values: { app, apps: allowed.join(', ') } });
        run.app = app;
      },
      typing: this.typingPort(context),
    };
  }

  private typingPort(context: ExecutionContext): TypingPort {
    const typing = this.options.typing;
    return {
      method: async () => (typing ? typing.method() : 'auto'),
      yadb: async () => (typing ? typing.helpers.ensure(context.serial, 'yadb', context.signal) : NO_YADB),
    };
  }

  /** The point a tap-like action aims at: an element's centre, or validated coordinates. */
  private async aimAt(args: AimArgs, context: ExecutionContext, tool: string): Promise<StepTarget> {
    if (args.element_id !== undefined) {
      const element = findElement(args.element_id, context.scene);
      return { ...boundsCenter(element.bounds), elementId: element.id, label: elementLabel(element) };
    }
    if (args.x === undefined || args.y === undefined) {
      throw invalidCall(say('step.needsTarget', { tool }));
    }
    const point = { x: args.x, y: args.y };
    checkOnScreen(point, await this.screenSize(context));
    const under = context.scene && elementAt(context.scene, point);
    return { ...point, ...(under && { elementId: under.id, label: elementLabel(under) }) };
  }

  /** The screen from the Scene; without a Scene, the phone's natural size (its facts, read once per phone). */
  private async screenSize(context: ExecutionContext, run?: CommandRun): Promise<ScreenSize> {
    if (context.scene) return context.scene.screen;
    let said = '';
    const query = run ?? new CommandRun(this.adb, context, this.options);
    const size = await this.facts.naturalSize(context.serial, async (command) => (said = await query.query(command)));
    if (!size) throw new AdbError(`Could not read the screen size of ${context.serial} (wm size said "${said.trim()}").`, 'command-failed');
    return size;
  }
}

/** The adb commands of one execution: counts attempts and retries what certainly did not reach the phone. */
class CommandRun {
  attempts = 0;
  retries = 0;
  target: StepTarget | undefined;
  app: string | undefined;

  constructor(
    private readonly adb: CommandRunner,
    private readonly context: ExecutionContext,
    private readonly options: ExecutorOptions,
  ) {}

  /** Runs a command that changes the phone; a non-zero exit or an exception in its output is a failure. */
  async send(command: string): Promise<string> {
    const { output, succeeded } = await this.withRetry(command);
    if (!succeeded || /Exception|^Error:/m.test(output)) {
      const said = output.trim().split('\n').slice(0, 3).join(' ').slice(0, 300);
      throw new AdbError(`\`${command.slice(0, 120)}\` failed on the phone${said ? `: ${said}` : ''}.`, 'command-failed');
    }
    return output;
  }

  /** Runs a read-only command and returns its output whatever the exit code. */
  async query(command: string): Promise<string> {
    return (await this.withRetry(command)).output;
  }

  private async withRetry(command: string): Promise<{ output: string; succeeded: boolean }> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    let delay = this.options.initialBackoffMs ?? 200;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(this.context.signal);
      this.attempts++;
      try {
        return await this.adb.exec(this.context.serial, command, {
          signal: this.context.signal,
          timeoutMs: this.options.commandTimeoutMs ?? 15_000,
        });
      } catch (error) {
        if (!(error instanceof AdbError) || !error.retryable || attempt >= maxAttempts) throw error;
        this.retries++;
        await sleep(delay, this.context.signal);
        delay = Math.min(delay * 2, this.options.maxBackoffMs ?? 2000);
      }
    }
  }
}

const elapsed = (start: number) => Math.round(performance.now() - start);
