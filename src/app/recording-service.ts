import { randomUUID } from 'node:crypto';
import { FlowSchema, type ActionStep, type FlowStep } from '../shared/flow';
import type { Recording, RecordedNote, RecordedStep, CheckKind } from '../shared/recording';
import { say, type Said, type SaidCode, type SaidValues } from '../shared/said';
import type { Scene } from '../shared/scene';
import type { TaskEvent } from '../shared/task';
import type { ToolCall } from '../shared/action';
import type { EventHub } from './ipc/event-hub';
import { parseFlowFile } from '../core/flows/flow-file';
import { referencedVariables, writtenLiterals } from '../core/flows/flow-variables';
import { stepLabel } from '../core/flows/flow-to-yaml';
import { checkAt, joinedTyping, recordedInput, settledStep, type MirrorInput } from '../core/flows/recorded-input';

/** The variables the recording's copy_text steps keep text in. */
const keptNames = (kept: readonly Kept[]): string[] => kept.flatMap((each) => ('copy_text' in each.step.step ? [each.step.step.copy_text.into] : []));

/** A recording's problem in plain words, with its code for a window in another language. */
export class RecordingProblem extends Error {
  override name = 'RecordingProblem';
  readonly said: Said;
  constructor(code: SaidCode, values: SaidValues = {}) {
    const saying = say(code, values);
    super(saying.text);
    this.said = saying.said;
  }
}

export interface RecordingServiceOptions {
  events: Pick<EventHub, 'publish'>;
  /** The phone's screen as a Scene (no screenshot), and how long the read took. */
  readScreen(serial: string): Promise<{ scene: Scene | null; error?: string; ms: number }>;
  /** Where a stopped recording is kept (the task store's append). */
  keep(event: TaskEvent): Promise<void>;
  now?: () => number;
  newId?: () => string;
}

interface Kept {
  step: RecordedStep;
  /** The screen the step was resolved on (kept with the task as its turn's Scene: text, never a picture). */
  scene: Scene | null;
}

interface Session {
  recording: Recording;
  kept: Kept[];
  /** The screen the person saw: read at the start and after each input. */
  seen: Scene | null;
  nextStep: number;
  /** Inputs are recorded one after another, in the order they came. */
  tail: Promise<unknown>;
}

/**
 * Recordings on the mirror, one per phone. Every input the person makes on a recording phone is carried out as it
 * always is (the caller's `carryOut`, the mirror's one path to the phone) and also kept as a flow step resolved on
 * the screen read just before it; Stop keeps the steps as a task in History. Lives in main: windows send edits.
 */
export class RecordingService {
  private readonly sessions = new Map<string, Session>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: RecordingServiceOptions) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  isRecording(serial: string): boolean {
    return this.sessions.has(serial);
  }

  status(serial: string): Recording | null {
    return this.sessions.get(serial)?.recording ?? null;
  }

  async start(serial: string): Promise<Recording> {
    if (this.sessions.has(serial)) throw new RecordingProblem('recording.alreadyRecording', { serial });
    const session: Session = {
      recording: { id: this.newId(), serial, startedAt: this.now(), steps: [], vars: {}, checking: null, problem: null },
      kept: [],
      seen: null,
      nextStep: 1,
      tail: Promise.resolve(),
    };
    this.sessions.set(serial, session);
    session.tail = this.options.readScreen(serial).then((read) => (session.seen = read.scene)).catch(() => undefined);
    await session.tail;
    this.publish(session);
    return session.recording;
  }

  /**
   * Carries out `input` through `carryOut` and records it, when a recording runs on the phone; otherwise only
   * carries it out. A failed input is not recorded (it did nothing a replay should repeat).
   */
  async carryOut<Result>(serial: string, input: MirrorInput, carryOut: (call: ToolCall) => Promise<Result>, plainCall: ToolCall): Promise<Result> {
    const session = this.sessions.get(serial);
    if (!session) return carryOut(plainCall);
    const run = session.tail.then(() => this.record(session, input, carryOut));
    session.tail = run.catch(() => undefined);
    return run;
  }

  private async record<Result>(session: Session, input: MirrorInput, carryOut: (call: ToolCall) => Promise<Result>): Promise<Result> {
    const arrived = performance.now();
    const read = await this.options.readScreen(session.recording.serial);
    const planned = recordedInput(session.seen, read.scene, input);
    const result = await carryOut(planned.call);
    if (!this.isCurrent(session)) return result;
    const problem = read.scene ? null : say('recording.screenUnread', { why: read.error ?? 'no layout' });
    session.recording = { ...session.recording, problem: problem?.text ?? null, ...(problem ? { problemSaid: problem.said } : { problemSaid: undefined }) };
    const kept = this.add(session, planned.step, planned.note, read.scene, { layoutMs: read.ms, handledMs: Math.max(0, performance.now() - arrived - read.ms) });
    this.publish(session);
    // The screen it left is the next one the person sees; it also says what the step did (an app it opened).
    const after = await this.options.readScreen(session.recording.serial).catch(() => null);
    if (!this.isCurrent(session) || !after) return result;
    session.seen = after.scene;
    if (kept) {
      const settled = settledStep(planned.step, read.scene, after.scene);
      if (settled.step !== planned.step) {
        this.replace(session, kept.step.id, writtenLiterals(settled.step), settled.note ?? kept.step.note);
        this.publish(session);
      }
    }
    return result;
  }

  /** Keeps `done` (as the screen and the person's keys had it) as a step written in our flow syntax: a `${` it shows is literal. */
  private add(session: Session, done: ActionStep, note: RecordedNote | undefined, scene: Scene | null, times: { layoutMs: number; handledMs: number }): Kept | null {
    const last = session.kept.at(-1);
    const joined = joinedTyping(last?.step.step, done);
    if (last && joined) {
      this.replace(session, last.step.id, joined, last.step.note);
      return null;
    }
    const step = writtenLiterals(done);
    const kept: Kept = { step: { id: `s${session.nextStep++}`, step, label: stepLabel(step), ...(note && { note }), ...times }, scene };
    session.kept.push(kept);
    session.recording = { ...session.recording, steps: session.kept.map((each) => each.step) };
    return kept;
  }

  private replace(session: Session, id: string, step: FlowStep, note?: RecordedNote): void {
    session.kept = session.kept.map((each) => (each.step.id === id ? { ...each, step: { ...each.step, step, label: stepLabel(step), note } } : each));
    if (!note) for (const each of session.kept) if (each.step.id === id) delete each.step.note;
    session.recording = { ...session.recording, steps: session.kept.map((each) => each.step) };
  }

  deleteStep(serial: string, id: string): Recording {
    const session = this.session(serial);
    this.stepOf(session, id);
    session.kept = session.kept.filter((each) => each.step.id !== id);
    session.recording = { ...session.recording, steps: session.kept.map((each) => each.step) };
    return this.publish(session);
  }

  /** A step rewritten in our flow syntax, read as a flow file reads it (with the recording's variables). */
  editStep(serial: string, id: string, text: string, vars: Record<string, string> = {}): Recording {
    const session = this.session(serial);
    this.stepOf(session, id);
    const allVars = { ...session.recording.vars, ...vars };
    const indented = text.trim().replace(/\n/g, '\n    ');
    const names = referencedVariables(text);
    // A name an earlier step keeps text in has its value while the flow runs.
    const kept = new Set(keptNames(session.kept.slice(0, session.kept.findIndex((each) => each.step.id === id))));
    const unset = names.filter((name) => !Object.hasOwn(allVars, name) && !kept.has(name));
    if (unset.length) throw new RecordingProblem('recording.stepUnreadable', { why: `give a value to ${unset.map((name) => `\${${name}}`).join(', ')}` });
    // Read with each reference kept as written: the kept step says `${name}` and the flow keeps the value apart.
    const known = Object.fromEntries(names.map((name) => [name, '']));
    const read = parseFlowFile(`goal: edit\nsteps:\n  - ${indented}\n`, { vars: known, keepReferences: true });
    if (!read.ok) throw new RecordingProblem('recording.stepUnreadable', { why: read.problems.map((problem) => problem.message).join('; ') });
    if (read.flow.steps.length !== 1) throw new RecordingProblem('recording.stepUnreadable', { why: 'write one step' });
    session.recording = { ...session.recording, vars: allVars };
    // A step a person wrote is theirs: what was said about how it was recorded no longer holds.
    this.replace(session, id, read.flow.steps[0]!);
    return this.publish(session);
  }

  setOptional(serial: string, id: string, optional: boolean): Recording {
    const session = this.session(serial);
    const { step } = this.stepOf(session, id);
    const { optional: _was, ...rest } = step.step as FlowStep & { optional?: boolean };
    this.replace(session, id, (optional ? { ...rest, optional: true } : rest) as FlowStep, step.note);
    return this.publish(session);
  }

  /** "Add check": with a point, the check of the element there now; without, the next click's. */
  async addCheck(serial: string, kind: CheckKind, point?: { x: number; y: number }): Promise<Recording> {
    const session = this.session(serial);
    if (!point) {
      session.recording = { ...session.recording, checking: kind };
      return this.publish(session);
    }
    const run = session.tail.then(async () => {
      const read = await this.options.readScreen(serial);
      if (!read.scene) throw new RecordingProblem('recording.screenUnread', { why: read.error ?? 'no layout' });
      const check = checkAt(read.scene, point, kind, new Set([...Object.keys(session.recording.vars), ...keptNames(session.kept)]));
      if ('problem' in check) {
        const codes = { 'nothing-here': 'recording.nothingHere', 'no-words': 'recording.noWords', 'not-checkable': 'recording.notCheckable', 'no-locator': 'recording.noLocator' } as const;
        throw new RecordingProblem(codes[check.problem]);
      }
      session.recording = { ...session.recording, checking: null };
      const step = writtenLiterals(check.step);
      const kept: Kept = { step: { id: `s${session.nextStep++}`, step, label: stepLabel(step), layoutMs: read.ms, handledMs: 0 }, scene: read.scene };
      session.kept.push(kept);
      session.recording = { ...session.recording, steps: session.kept.map((each) => each.step) };
      return this.publish(session);
    });
    session.tail = run.catch(() => undefined);
    return run;
  }

  cancelCheck(serial: string): Recording {
    const session = this.session(serial);
    session.recording = { ...session.recording, checking: null };
    return this.publish(session);
  }

  discard(serial: string): void {
    if (!this.sessions.delete(serial)) return;
    this.options.events.publish('record.changed', { serial, recording: null });
  }

  /** Keeps the recording as a task in History ("recorded by you"), its flow as the person left it; answers with its id. */
  async stop(serial: string, goal: string): Promise<string> {
    const session = this.session(serial);
    await session.tail;
    if (session.kept.length === 0) throw new RecordingProblem('recording.nothingRecorded');
    const steps = session.kept.map((each) => each.step.step);
    const app = session.kept.find((each) => each.scene?.screen.package)?.scene?.screen.package;
    const flow = FlowSchema.parse({ goal, ...(app && { app }), vars: session.recording.vars, steps });
    const taskId = this.newId();
    const base = { taskId };
    const startedAt = session.recording.startedAt;
    const events: TaskEvent[] = [
      { type: 'task.started', ...base, at: startedAt, goal, serial, planner: { kind: 'replay', exposesReasoning: false }, maxSteps: Math.max(1, steps.length), recorded: { by: 'person', flow } },
    ];
    session.kept.forEach((each, index) => {
      const step = index + 1;
      const at = startedAt;
      const action = 'tool' in each.step.step ? each.step.step : null;
      events.push({ type: 'step.observed', ...base, at, step, scene: each.scene, sceneError: null, screenshot: null, screenChanged: null, observeMs: each.step.layoutMs });
      events.push({ type: 'step.planned', ...base, at, step, tool: action?.tool ?? 'assert', args: action?.args ?? {}, rationale: each.step.label, thinking: null, usage: null, costUsd: null, source: 'replayed', planMs: 0 });
      events.push({ type: 'step.executed', ...base, at, step, outcome: { ok: true, attempts: action ? 1 : 0, durationMs: each.step.handledMs }, executeMs: each.step.handledMs });
    });
    const finishedAt = this.now();
    events.push({ type: 'task.finished', ...base, at: finishedAt, status: 'completed', failureReason: null, result: null, steps: steps.length, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: null, durationMs: finishedAt - startedAt });
    for (const event of events) await this.options.keep(event);
    this.sessions.delete(serial);
    this.options.events.publish('record.changed', { serial, recording: null });
    return taskId;
  }

  private isCurrent(session: Session): boolean {
    return this.sessions.get(session.recording.serial) === session;
  }

  private session(serial: string): Session {
    const session = this.sessions.get(serial);
    if (!session) throw new RecordingProblem('recording.notRecording', { serial });
    return session;
  }

  private stepOf(session: Session, id: string): Kept {
    const kept = session.kept.find((each) => each.step.id === id);
    if (!kept) throw new RecordingProblem('recording.noStep', { step: id });
    return kept;
  }

  private publish(session: Session): Recording {
    this.options.events.publish('record.changed', { serial: session.recording.serial, recording: session.recording });
    return session.recording;
  }
}
