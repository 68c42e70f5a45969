import type { StepOutcome, ToolCall } from '../shared/action';
import type { Scene } from '../shared/scene';
import type { ConfirmationMode } from '../shared/settings-catalog';
import { actionWords } from '../shared/supervision-words';
import type { AppServices } from '../main/app/create-app';
import type { Observation } from '../main/perception/observer';
import { decideAction } from '../main/runtime/action-policy';

/** An action the confirmation setting holds for the person's yes, in words, and how to ask for it. */
export interface ConfirmationAsk {
  /** "tap {"element_id":"e7"} on Send: it sends a message" */
  question: string;
  /** Asks the person; true only for their yes. */
  ask(question: string): Promise<boolean>;
  /** The confirmation setting now (Settings → Confirm actions). */
  mode: ConfirmationMode;
}

/** The long edge of the screenshot an agent gets, as the AI planner's default. */
export const AGENT_SCREENSHOT_LONG_EDGE = 1456;

/**
 * One connected agent acting as the planner: the phones it holds (the same per-phone lock the app's tasks
 * and `amc run` take, so only one agent drives a phone at a time) and the Scene it last saw on each, which
 * its element ids refer to.
 */
export class AgentSession {
  private readonly holds = new Map<string, { release(): Promise<void> }>();
  private readonly lastScene = new Map<string, Scene | null>();

  constructor(
    private readonly agent: AppServices['agent'],
    private readonly id: string,
  ) {}

  async observe(serial: string, options: { screenshot: boolean; signal?: AbortSignal }): Promise<Observation> {
    await this.agent.checkReady(serial);
    const { perception } = await this.agent.settings();
    const observation = await this.agent.phone.observe(serial, {
      screenshot: options.screenshot ? { longEdge: AGENT_SCREENSHOT_LONG_EDGE } : false,
      sceneTokenBudget: perception.sceneTokenBudget,
      ...(options.signal && { signal: options.signal }),
    });
    this.lastScene.set(serial, observation.scene);
    return observation;
  }

  /**
   * One action through the Executor (the same validation, schemas and retries as a task's), against the
   * Scene this agent last observed on the phone (observed now when it never looked). Takes the phone for
   * this agent first: refused in plain words while another task or agent drives it. An action the confirmation
   * setting holds (a sensitive one, or any in step mode) runs only after the person's yes, as in the app's tasks.
   */
  async act(serial: string, call: ToolCall, options: { signal?: AbortSignal; confirmation: Omit<ConfirmationAsk, 'question'> }): Promise<StepOutcome> {
    const { signal, confirmation } = options;
    await this.agent.checkReady(serial);
    await this.hold(serial);
    if (!this.lastScene.has(serial)) await this.observe(serial, { screenshot: false, ...(signal && { signal }) });
    const scene = this.lastScene.get(serial) ?? null;
    const verdict = decideAction({ call, scene, mode: confirmation.mode, allowedApps: null });
    if (verdict.decision === 'confirm') {
      const on = verdict.target ? ` on ${verdict.target.label}` : '';
      const question = `${actionWords(call.name, call.args)}${on}: ${verdict.reasons.join('; ')}`;
      if (!(await confirmation.ask(question))) throw new Error(`Not done, the person did not say yes to ${question}.`);
    }
    return this.agent.phone.executorPort.execute(call, { serial, scene, ...(signal && { signal }) });
  }

  /** Hands the phone back (before a run_goal on it, on release_phone, when the agent leaves). */
  async release(serial: string): Promise<boolean> {
    const hold = this.holds.get(serial);
    this.holds.delete(serial);
    await hold?.release();
    return hold !== undefined;
  }

  async close(): Promise<void> {
    await Promise.all([...this.holds.keys()].map((serial) => this.release(serial)));
  }

  private async hold(serial: string): Promise<void> {
    if (this.holds.has(serial)) return;
    const hold = await this.agent.locks.acquire(serial, { taskId: `mcp-agent-${this.id}`, goal: 'an MCP agent acting step by step' });
    this.holds.set(serial, hold);
  }
}
