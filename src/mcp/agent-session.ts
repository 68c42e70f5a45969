import { sentToPhone, type StepOutcome, type ToolCall } from '../shared/action';
import type { Scene } from '../shared/scene';
import type { ConfirmationMode } from '../shared/settings-catalog';
import { actionWords } from '../shared/supervision-words';
import type { AppServices } from '../main/app/create-app';
import type { Observation } from '../main/perception/observer';
import { decideAction } from '../main/runtime/action-policy';
import type { DeviceLockHold } from '../main/storage/device-lock';

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

/** Who the agent is, as the phone's lock names it to anyone it keeps waiting. */
export interface AgentIdentity {
  id: string;
  /** The MCP client's name once it has introduced itself. */
  client(): string;
  startedAt: number;
  /** How long the session lasts without a request (its phones are free then at the latest); null: as long as it is connected. */
  idleTimeoutMs: number | null;
}

/**
 * One connected agent acting as the planner: the phones it holds (the same per-phone lock the app's tasks
 * and `amc run` take, so only one agent drives a phone at a time) and the Scene it last saw on each, which
 * its element ids refer to.
 */
export class AgentSession {
  private readonly holds = new Map<string, DeviceLockHold>();
  private readonly lastScene = new Map<string, Scene | null>();

  constructor(
    private readonly agent: AppServices['agent'],
    private readonly identity: AgentIdentity,
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
   * An action that fails before anything reaches the phone (bad arguments, the person's no) hands a phone it
   * had just taken back.
   */
  async act(serial: string, call: ToolCall, options: { signal?: AbortSignal; confirmation: Omit<ConfirmationAsk, 'question'> }): Promise<StepOutcome> {
    await this.agent.checkReady(serial);
    const fresh = await this.hold(serial);
    try {
      const outcome = await this.actHolding(serial, call, options);
      if (fresh && !outcome.ok && !sentToPhone(outcome)) await this.release(serial);
      return outcome;
    } catch (error) {
      if (fresh) await this.release(serial);
      throw error;
    }
  }

  private async actHolding(serial: string, call: ToolCall, options: { signal?: AbortSignal; confirmation: Omit<ConfirmationAsk, 'question'> }): Promise<StepOutcome> {
    const { signal, confirmation } = options;
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

  /** Hands every phone back (the agent left, or went quiet); the session may take them again later. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.holds.keys()].map((serial) => this.release(serial)));
  }

  /** Takes the phone unless this agent holds it still; true when it was taken now. */
  private async hold(serial: string): Promise<boolean> {
    const held = this.holds.get(serial);
    if (held && (await held.stillHeld())) return false;
    if (held) {
      this.holds.delete(serial);
      await held.release();
      throw new Error(`Not done: the person took phone ${serial} back (Stop in the app). Your next action takes it again if nobody else drives it.`);
    }
    const { id, startedAt, idleTimeoutMs } = this.identity;
    const hold = await this.agent.locks.acquire(serial, {
      taskId: `mcp-agent-${id}`,
      goal: 'an MCP agent acting step by step',
      agent: { client: this.identity.client(), sessionStartedAt: startedAt, idleTimeoutMs },
    });
    this.holds.set(serial, hold);
    return true;
  }
}
