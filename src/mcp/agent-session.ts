import { wordCode } from '../shared/said';
import { sentToPhone, type StepOutcome, type ToolCall } from '../shared/action';
import { sceneFingerprint, type Scene } from '../shared/scene';
import type { ConfirmationMode } from '../shared/settings-catalog';
import { actionWords, saidWords } from '../shared/supervision-words';
import type { TaskEvent } from '../shared/task';
import type { AppServices } from '../app/create-app';
import type { Observation } from '../core/perception/observer';
import { freeingWords, holderWords, type DeviceLockHold } from '../core/storage/device-lock';
import { SupervisedActions } from '../core/runtime/supervised-action';
import type { SupervisorPort } from '../core/runtime/supervisor';
import { ACTION_TOOLS } from '../core/tools/registry';
import { ENGLISH, type Words } from '../shared/i18n/translate';

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
  /** The language of what the person is asked and of the errors the agent gets (English when not given). */
  words?: Words;
}

/**
 * One connected agent acting as the planner: the phones it holds (the same per-phone lock the app's tasks
 * and `amc run` take, so only one agent drives a phone at a time) and the Scene it last saw on each, which
 * its element ids refer to.
 */
export class AgentSession {
  private readonly holds = new Map<string, DeviceLockHold>();
  private readonly lastScene = new Map<string, Scene | null>();
  /** Actions taken per phone: the step each one's events carry. */
  private readonly steps = new Map<string, number>();

  /** `onEvent` hears each action's events (policy, the person, the outcome, its verification), as a task's are recorded. */
  constructor(
    private readonly agent: AppServices['agent'],
    private readonly identity: AgentIdentity,
    private readonly onEvent: (event: TaskEvent) => void = () => undefined,
  ) {}

  async observe(serial: string, options: { screenshot: boolean; signal?: AbortSignal }): Promise<Observation> {
    const observation = await this.look(serial, options);
    this.lastScene.set(serial, observation.scene);
    return observation;
  }

  /**
   * One supervised action, as a task's turn takes it (the same policy, confirmation, Executor and verification),
   * against the Scene this agent last observed on the phone (observed now when it never looked). Takes the phone for
   * this agent first: refused in plain words while another task or agent drives it. An action the confirmation
   * setting holds (a sensitive one, or any in step mode) runs only after the person's yes. The outcome carries what
   * a fresh look after it verifies; the Scene the agent's element ids refer to stays the one it observed. An action
   * that fails before anything reaches the phone (bad arguments, the person's no) hands a phone it had just taken back.
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
    const { confirmation } = options;
    const signal = options.signal ?? new AbortController().signal;
    if (!this.lastScene.has(serial)) await this.observe(serial, { screenshot: false, signal });
    const scene = this.lastScene.get(serial) ?? null;
    const step = (this.steps.get(serial) ?? 0) + 1;
    this.steps.set(serial, step);
    const words = this.identity.words ?? ENGLISH;
    const person = askingThrough(confirmation, words);
    const actions = new SupervisedActions(
      { executor: this.agent.phone.executorPort, tools: ACTION_TOOLS },
      { taskId: `mcp-agent-${this.identity.id}`, serial, signal, supervisor: person.supervisor, allowedApps: null, confirmation: () => confirmation.mode, emit: this.onEvent, now: Date.now },
    );
    const result = await actions.act(step, { tool: call.name, args: call.args, rationale: null }, scene);
    if (result.kind === 'ended') throw person.failure ?? new Error(typeof result.reason === 'string' ? result.reason : saidWords(result.reason.text, result.reason.said, words));
    if (result.kind === 'denied') throw new Error(words.t('mcp:notAllowed', { question: person.question }));
    if (!result.outcome.ok) return result.outcome;
    const after = (await this.look(serial, { screenshot: false, signal })).scene;
    const screenChanged = scene && after ? sceneFingerprint(scene) !== sceneFingerprint(after) : null;
    const { verification } = actions.settle(after, screenChanged);
    return verification ? { ...result.outcome, verification } : result.outcome;
  }

  /** Hands the phone back (before a run_goal on it, on release_phone, when the agent leaves). */
  async release(serial: string): Promise<string> {
    const hold = this.holds.get(serial);
    this.holds.delete(serial);
    if (hold) {
      await hold.release();
      return `Released ${serial}.`;
    }
    // Not this session's to release: say who has it and how it comes free, so the agent does not wait on nothing.
    const holder = await this.agent.locks.holder(serial);
    if (!holder) return `Phone ${serial} is free: this session did not hold it, and nobody else does.`;
    return `This session does not hold ${serial}, so it cannot release it: ${holderWords(holder)} drives it. ${freeingWords(holder)}`;
  }

  /** Hands every phone back (the agent left, or went quiet); the session may take them again later. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.holds.keys()].map((serial) => this.release(serial)));
  }

  private async look(serial: string, options: { screenshot: boolean; signal?: AbortSignal }): Promise<Observation> {
    await this.agent.checkReady(serial);
    const { perception } = await this.agent.settings();
    return this.agent.phone.observe(serial, {
      screenshot: options.screenshot ? { longEdge: AGENT_SCREENSHOT_LONG_EDGE } : false,
      sceneTokenBudget: perception.sceneTokenBudget,
      ...(options.signal && { signal: options.signal }),
    });
  }

  /** Takes the phone unless this agent holds it still; true when it was taken now. */
  private async hold(serial: string): Promise<boolean> {
    const held = this.holds.get(serial);
    if (held && (await held.stillHeld())) return false;
    if (held) {
      this.holds.delete(serial);
      await held.release();
      throw new Error((this.identity.words ?? ENGLISH).t('mcp:takenBack', { serial }));
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

/**
 * The agent's person as a supervisor: a confirmation becomes the MCP client's question (yes allows this action
 * once); a client that cannot ask fails the action with its own words.
 */
function askingThrough(confirmation: Omit<ConfirmationAsk, 'question'>, words: Words): { supervisor: SupervisorPort; question: string; failure?: Error } {
  const person: { supervisor: SupervisorPort; question: string; failure?: Error } = {
    question: '',
    supervisor: {
      async ask({ request }) {
        if (request.kind !== 'confirmation') return { reply: { kind: 'unanswered', reason: wordCode('refusal.agentAsksOnlyActions') }, by: 'no-one-present' };
        const asked = { action: actionWords(request.tool, request.args, undefined, words), target: request.target?.label, reasons: request.reasons.join('; ') };
        person.question = words.t(asked.target ? 'mcp:questionOn' : 'mcp:question', asked);
        try {
          return (await confirmation.ask(person.question)) ? { reply: { kind: 'allow', scope: 'once' }, by: 'person' } : { reply: { kind: 'deny' }, by: 'person' };
        } catch (error) {
          person.failure = error instanceof Error ? error : new Error(String(error));
          throw error;
        }
      },
    },
  };
  return person;
}
