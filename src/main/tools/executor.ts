import type { z } from 'zod';
import type { StepOutcome, StepTarget, ToolCall } from '../../shared/action';
import { boundsCenter, elementLabel, type Bounds, type Scene, type SceneElement } from '../../shared/scene';
import type { AdbClient } from '../device/adb-client';
import { parseWmSize } from '../device/device-info';
import { AbortError, AdbError, isAbortError, sleep, throwIfAborted } from '../device/errors';
import { parsePackageList, resolveApp } from './app-resolver';
import { swipeInRegion, type Point } from './gestures';
import { ADB_KEYBOARD_IME, hasUntypableControls, imeTextCommand, inputTextCommands, isInputTextTypable } from './input-text';
import {
  ACTION_TOOL_NAMES,
  ACTION_TOOLS,
  KEY_CODES,
  isActionToolName,
  type LaunchAppArgs,
  type LongPressArgs,
  type PressKeyArgs,
  type SwipeArgs,
  type TapArgs,
  type TypeTextArgs,
  type WaitArgs,
} from './specs';

export interface ExecutorOptions {
  /** adb attempts per command for failures that certainly did not reach the phone (default 3). */
  maxAttempts?: number;
  /** First backoff delay, doubled per retry up to maxBackoffMs (defaults 200 ms and 2 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Per adb command (default 15 s). */
  commandTimeoutMs?: number;
}

export interface ExecutionContext {
  serial: string;
  /** The Scene the planner saw this turn: element ids and the screen bounds are checked against it. */
  scene: Scene | null;
  /** Aborting stops the command in flight; nothing further is sent and `execute` rejects with AbortError. */
  signal?: AbortSignal;
}

/** The one adb capability the Executor needs (an AdbClient). */
export type CommandRunner = Pick<AdbClient, 'exec'>;

/** A problem with the call itself: reported as an error outcome before anything is sent to the phone. */
class InvalidCall extends Error {}

const LONG_PRESS_MS = 800;
const SWIPE_MS = 300;
const CLEAR_FALLBACK_CHARS = 100;

/**
 * Runs one tool call on the phone: validates it against the turn's Scene, resolves element ids to their
 * centres, sends the adb commands (retrying transient adb failures with bounded exponential backoff) and
 * returns a StepOutcome. Failures are outcomes, not exceptions; only an abort rejects.
 */
export class Executor {
  private readonly screenSizes = new Map<string, { width: number; height: number }>();

  constructor(
    private readonly adb: CommandRunner,
    private readonly options: ExecutorOptions = {},
  ) {}

  async execute(call: ToolCall, context: ExecutionContext): Promise<StepOutcome> {
    const start = performance.now();
    const run = new CommandRun(this.adb, context, this.options);
    let target: StepTarget | undefined;
    try {
      throwIfAborted(context.signal);
      target = await this.dispatch(call, context, run);
      return { ok: true, attempts: run.attempts, durationMs: elapsed(start), ...(target && { target }) };
    } catch (error) {
      if (isAbortError(error) || context.signal?.aborted) throw new AbortError('The action was cancelled');
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, error: reason, attempts: run.attempts, durationMs: elapsed(start), ...(run.target && { target: run.target }) };
    }
  }

  private async dispatch(call: ToolCall, context: ExecutionContext, run: CommandRun): Promise<StepTarget | undefined> {
    if (!isActionToolName(call.name)) {
      throw new InvalidCall(`Unknown tool "${call.name}". Available tools: ${ACTION_TOOL_NAMES.join(', ')}.`);
    }
    const args = parseArgs(call.name, ACTION_TOOLS[call.name].schema, call.args);
    switch (call.name) {
      case 'tap':
        return this.tap(args as TapArgs, context, run);
      case 'long_press':
        return this.longPress(args as LongPressArgs, context, run);
      case 'swipe':
        return this.swipe(args as SwipeArgs, context, run);
      case 'type_text':
        return this.typeText(args as TypeTextArgs, context, run);
      case 'press_key':
        await run.send(`input keyevent ${KEY_CODES[(args as PressKeyArgs).key]}`);
        return undefined;
      case 'launch_app':
        await this.launchApp(args as LaunchAppArgs, run);
        return undefined;
      case 'wait':
        await sleep((args as WaitArgs).seconds * 1000, context.signal);
        return undefined;
      case 'describe_screen':
        return undefined;
    }
  }

  private async tap(args: TapArgs, context: ExecutionContext, run: CommandRun): Promise<StepTarget> {
    const target = await this.resolveTarget(args, context, 'tap');
    run.target = target;
    await run.send(`input tap ${target.x} ${target.y}`);
    return target;
  }

  private async longPress(args: LongPressArgs, context: ExecutionContext, run: CommandRun): Promise<StepTarget> {
    const target = await this.resolveTarget(args, context, 'long_press');
    run.target = target;
    const duration = args.duration_ms ?? LONG_PRESS_MS;
    await run.send(`input swipe ${target.x} ${target.y} ${target.x} ${target.y} ${duration}`);
    return target;
  }

  private async swipe(args: SwipeArgs, context: ExecutionContext, run: CommandRun): Promise<StepTarget> {
    const screen = await this.screenSize(context, run);
    const coordinates = [args.from_x, args.from_y, args.to_x, args.to_y];
    const given = coordinates.filter((value) => value !== undefined).length;
    let from: Point;
    let to: Point;
    let element: SceneElement | undefined;
    if (args.direction !== undefined) {
      if (given > 0) throw new InvalidCall('swipe takes either direction or from_x/from_y/to_x/to_y, not both.');
      element = args.element_id === undefined ? undefined : findElement(args.element_id, context.scene);
      const region: Bounds = element?.bounds ?? [0, Math.round(screen.height * 0.15), screen.width, Math.round(screen.height * 0.85)];
      ({ from, to } = swipeInRegion(args.direction, region));
    } else {
      if (given !== 4) {
        throw new InvalidCall('swipe needs direction (optionally with element_id), or all of from_x, from_y, to_x and to_y.');
      }
      from = { x: args.from_x!, y: args.from_y! };
      to = { x: args.to_x!, y: args.to_y! };
      checkOnScreen(from, screen);
      checkOnScreen(to, screen);
    }
    const target: StepTarget = { ...from, ...(element && { elementId: element.id, label: elementLabel(element) }) };
    run.target = target;
    await run.send(`input swipe ${from.x} ${from.y} ${to.x} ${to.y} ${args.duration_ms ?? SWIPE_MS}`);
    return target;
  }

  private async typeText(args: TypeTextArgs, context: ExecutionContext, run: CommandRun): Promise<StepTarget | undefined> {
    const viaIme = !isInputTextTypable(args.text);
    if (hasUntypableControls(args.text)) {
      throw new InvalidCall('type_text cannot type control characters (tabs and the like); use press_key for keys.');
    }
    let target: StepTarget | undefined;
    let field: SceneElement | undefined;
    if (args.element_id !== undefined) {
      target = await this.resolveTarget({ element_id: args.element_id }, context, 'type_text');
      field = findElement(args.element_id, context.scene);
    } else {
      field = context.scene?.elements.find((element) => element.editable && element.focused);
    }
    const ime = viaIme ? await this.prepareIme(run) : undefined;
    if (target) {
      run.target = target;
      await run.send(`input tap ${target.x} ${target.y}`);
    }
    try {
      if (args.clear_first) {
        const count = field?.text ? field.text.length : CLEAR_FALLBACK_CHARS;
        await run.send(`input keyevent ${[KEY_CODES.move_end, ...Array<number>(count).fill(KEY_CODES.delete)].join(' ')}`);
      }
      if (viaIme) await run.send(imeTextCommand(args.text));
      else for (const command of inputTextCommands(args.text)) await run.send(command);
      if (args.submit) await run.send(`input keyevent ${KEY_CODES.enter}`);
    } finally {
      if (ime?.previous && !context.signal?.aborted) await run.send(`ime set ${ime.previous}`).catch(() => undefined);
    }
    return target;
  }

  /**
   * Makes ADBKeyBoard the current input method for non-ASCII text. Returns the method to restore, or throws
   * a clear error when ADBKeyBoard is not installed and enabled.
   */
  private async prepareIme(run: CommandRun): Promise<{ previous?: string }> {
    const enabled = (await run.query('ime list -s')).split('\n').map((line) => line.trim());
    if (!enabled.includes(ADB_KEYBOARD_IME)) {
      throw new InvalidCall(
        'Typing non-ASCII text needs the ADBKeyBoard input method, which is not enabled on this phone. Install ' +
          `ADBKeyBoard (https://github.com/senzhk/ADBKeyBoard) and run \`adb shell ime enable ${ADB_KEYBOARD_IME}\`, ` +
          'or type ASCII text only.',
      );
    }
    const current = (await run.query('settings get secure default_input_method')).trim();
    if (current === ADB_KEYBOARD_IME) return {};
    await run.send(`ime set ${ADB_KEYBOARD_IME}`);
    return current && current !== 'null' ? { previous: current } : {};
  }

  private async launchApp(args: LaunchAppArgs, run: CommandRun): Promise<void> {
    const resolution = resolveApp(args.app, parsePackageList(await run.query('pm list packages')));
    if ('error' in resolution) throw new InvalidCall(resolution.error);
    const output = await run.query(`monkey -p ${resolution.package} -c android.intent.category.LAUNCHER 1`);
    if (/no activities found|monkey aborted|error/i.test(output)) {
      throw new AdbError(`${resolution.package} has no launcher activity to open (${output.trim().split('\n').at(-1)}).`, 'command-failed');
    }
  }

  /** The point a tap-like action aims at: an element's centre, or validated coordinates. */
  private async resolveTarget(
    args: { element_id?: string; x?: number; y?: number },
    context: ExecutionContext,
    tool: string,
  ): Promise<StepTarget> {
    if (args.element_id !== undefined) {
      const element = findElement(args.element_id, context.scene);
      return { ...boundsCenter(element.bounds), elementId: element.id, label: elementLabel(element) };
    }
    if (args.x === undefined || args.y === undefined) {
      throw new InvalidCall(`${tool} needs element_id, or both x and y.`);
    }
    const point = { x: args.x, y: args.y };
    checkOnScreen(point, await this.screenSize(context));
    const under = context.scene && elementAt(context.scene, point);
    return { ...point, ...(under && { elementId: under.id, label: elementLabel(under) }) };
  }

  /** The screen from the Scene; without a Scene, the device's own `wm size` (cached per serial). */
  private async screenSize(context: ExecutionContext, run?: CommandRun): Promise<{ width: number; height: number }> {
    if (context.scene) return context.scene.screen;
    const known = this.screenSizes.get(context.serial);
    if (known) return known;
    const output = await (run ?? new CommandRun(this.adb, context, this.options)).query('wm size');
    const size = parseWmSize(output);
    if (!size) throw new AdbError(`Could not read the screen size of ${context.serial} (wm size said "${output.trim()}").`, 'command-failed');
    this.screenSizes.set(context.serial, size);
    return size;
  }
}

/** The adb commands of one execution: counts attempts and retries what certainly did not reach the phone. */
class CommandRun {
  attempts = 0;
  target: StepTarget | undefined;

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
        await sleep(delay, this.context.signal);
        delay = Math.min(delay * 2, this.options.maxBackoffMs ?? 2000);
      }
    }
  }
}

function parseArgs(name: string, schema: z.ZodType, args: unknown): unknown {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.join('.');
    if (issue.code === 'unrecognized_keys') return `unknown argument(s) ${issue.keys.join(', ')}`;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new InvalidCall(`Invalid arguments for ${name}: ${problems.join('; ')}.`);
}

function findElement(id: string, scene: Scene | null): SceneElement {
  if (!scene) {
    throw new InvalidCall(`There is no Scene this turn, so element id ${id} cannot be resolved; use x and y instead.`);
  }
  const element = scene.elements.find((candidate) => candidate.id === id);
  if (!element) {
    const range = scene.elements.length ? `e1 to e${scene.elements.length}` : 'none';
    throw new InvalidCall(`There is no element ${id} in this turn's Scene (ids: ${range}). Ids change every turn.`);
  }
  return element;
}

function checkOnScreen(point: Point, screen: { width: number; height: number }): void {
  if (point.x < 0 || point.y < 0 || point.x >= screen.width || point.y >= screen.height) {
    throw new InvalidCall(
      `Point (${point.x}, ${point.y}) is outside the ${screen.width}x${screen.height} screen; coordinates are device pixels.`,
    );
  }
}

/** The smallest element containing the point (for labelling coordinate taps). */
function elementAt(scene: Scene, point: Point): SceneElement | undefined {
  let best: SceneElement | undefined;
  let bestArea = Infinity;
  for (const element of scene.elements) {
    const [left, top, right, bottom] = element.bounds;
    if (point.x < left || point.x >= right || point.y < top || point.y >= bottom) continue;
    const area = (right - left) * (bottom - top);
    if (area < bestArea) [best, bestArea] = [element, area];
  }
  return best;
}

const elapsed = (start: number) => Math.round(performance.now() - start);
