import { FlowSchema, type ActionStep, type ElementState, type ExpectedOutcome, type Flow, type FlowStep, type Locator } from '../../shared/flow';
import type { Scene, SceneElement } from '../../shared/scene';
import type { StepRecord, TaskRecord } from '../../shared/task';
import { say, type Said, type Saying } from '../../shared/said';
import { ACTION_TOOLS } from '../tools/registry';
import type { ToolCatalog } from '../tools/tool';
import { describeAction } from '../runtime/supervised-action';
import { answerOf } from './flow-answer';
import { writtenLiterals } from './flow-variables';
import { locatorFor, resolveLocator } from './locator';
import { oneOffDialogOf } from './one-off-dialog';

/**
 * A finished task as a flow: one step per action that did something on the phone, each naming its element by a
 * locator (the Scene's ids die with their turn), with the element's state before and what the runtime verified
 * after. Looks and waits, failed or denied actions, the person's turns and gestures that changed nothing are left
 * out: replaying them would only repeat what did not help. An action on an element that says nothing a locator could
 * hold becomes a sub-goal for the model (`ai`): a replay never aims at a point it cannot name. A tap that answered a
 * one-off dialog (a permission, a tip: one-off-dialog.ts) is optional: where it was answered before, the replay goes
 * on without it. A question's answer keeps where it was read (flow-answer.ts). Pure.
 */

/** The task took no action a replay could repeat. */
export class NothingToReplay extends Error {
  override name = 'NothingToReplay';
  /** The message's code, for a reader in another language. */
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

/** Arguments that aim at a point: replaced by the target's locator. */
const POINT_ARGS = ['element_id', 'x', 'y'] as const;

/** A home screen's package: what a run taps there (an app's icon, a page of icons) is only the way into its app. */
const LAUNCHER = /launcher/i;

/** The first turn whose screen shows an app that is not the home screen; -1 when none did. */
const appTurnOf = (record: TaskRecord): number => record.steps.findIndex((turn) => turn.scene?.screen.package && !LAUNCHER.test(turn.scene.screen.package));

/** The app a run worked in: the first one in front that is not the home screen. */
export function appWorkedIn(record: TaskRecord): string | undefined {
  const turn = appTurnOf(record);
  return turn >= 0 ? record.steps[turn]!.scene!.screen.package : undefined;
}

export function flowFromRecord(record: TaskRecord, tools: ToolCatalog = ACTION_TOOLS): Flow {
  // A person's recording keeps the flow as they left it (their edits, checks and optional steps), not its turns.
  if (record.recorded) return FlowSchema.parse({ ...record.recorded.flow, recordedFrom: record.id });
  // Where the run started (the plan cache follows only a run that starts there), and the app it worked in: the first
  // one in front that is not the home screen.
  const app = record.steps.find((turn) => turn.scene?.screen.package)?.scene?.screen.package;
  const appTurn = appTurnOf(record);
  const workedIn = appWorkedIn(record);
  const onLauncher = (index: number, step: FlowStep) => index < appTurn && !('tool' in step && step.tool === 'launch_app');
  let tookTheLauncher = false;
  const located = record.steps.flatMap((turn, index) => {
    const step = actionStepOf(record, turn, tools);
    if (!step) return [];
    // A tap or swipe on the home screen before the app: replaced below by opening the app, which no icon's place changes.
    if (onLauncher(index, step)) {
      tookTheLauncher = true;
      return [];
    }
    return [step];
  });
  const first = located[0];
  const opensApp = first !== undefined && 'tool' in first && first.tool === 'launch_app';
  const steps: FlowStep[] =
    tookTheLauncher && workedIn && !opensApp ? [{ tool: 'launch_app', args: { app: workedIn }, expect: { app: workedIn }, why: `Open ${workedIn}, the app the recorded run worked in.` }, ...located] : located;
  if (steps.length === 0) throw new NothingToReplay(say('flowExport.nothingToReplay', { id: record.id, goal: record.goal }));
  const answer = answerOf(record);
  // The screen's texts as a flow writes them: a `${` an app shows is literal there, never a variable.
  return FlowSchema.parse({ goal: record.goal, ...(app && { app }), recordedFrom: record.id, steps: writtenLiterals(steps), ...(answer && { answer }) });
}

/** One turn of a record as a flow step, or null when it did nothing a replay could repeat (see flowFromRecord). */
export function actionStepOf(record: TaskRecord, turn: StepRecord, tools: ToolCatalog = ACTION_TOOLS): FlowStep | null {
  const { planned, outcome, scene } = turn;
  if (!planned || !outcome?.ok || !tools.get(planned.tool)?.actsOnPhone) return null;
  const verification = outcome.verification;
  // A swipe or tap that left the screen as it was did nothing worth repeating.
  if (verification?.check === 'screen-changed' && verification.status === 'not-verified') return null;
  const after = record.steps.find((next) => next.step === turn.step + 1)?.scene ?? null;
  const aimedId = typeof planned.args.element_id === 'string' ? planned.args.element_id : outcome.target?.elementId;
  const element = aimedId ? scene?.elements.find((candidate) => candidate.id === aimedId) : undefined;
  const target = element && scene ? locatorFor(scene, element) : null;
  const aimed = aimedId !== undefined || planned.args.x !== undefined;
  if (aimed && !target) return { ai: describeAction(planned.tool, withoutKeys(planned.args, POINT_ARGS), outcome.target?.label) };
  const args = withoutKeys(planned.args, POINT_ARGS);
  const before: ElementState | undefined = element?.checked === undefined ? undefined : { checked: element.checked };
  const expect = expectedOutcome(planned.tool, planned.args, outcome, target, after, tools);
  const oneOff = planned.tool === 'tap' && element && scene && target ? oneOffDialogOf(scene, element) : null;
  const step: ActionStep = {
    tool: planned.tool,
    args,
    ...(target && { target }),
    ...(before && { before }),
    ...(expect && { expect }),
    ...(planned.rationale && { why: planned.rationale }),
    ...(oneOff && { optional: true }),
  };
  return step;
}

/** What was verified after the action, as a condition a later Scene can be checked against. */
function expectedOutcome(
  tool: string,
  args: Record<string, unknown>,
  outcome: NonNullable<StepRecord['outcome']>,
  target: Locator | null,
  after: Scene | null,
  tools: ToolCatalog,
): ExpectedOutcome | undefined {
  const verification = outcome.verification;
  if (verification?.status !== 'verified') return undefined;
  if (verification.check === 'app-in-foreground' && outcome.app) return { app: outcome.app };
  const now = target && after ? resolved(after, target) : undefined;
  if (verification.check === 'checked-flipped' && now?.checked !== undefined) return { checked: now.checked };
  const typed = tools.get(tool)?.effectsOf(args)?.typedText;
  if (verification.check === 'text-in-field' && typed && now?.text !== undefined) return { fieldText: now.text };
  return undefined;
}

function resolved(scene: Scene, locator: Locator): SceneElement | undefined {
  const found = resolveLocator(scene, locator);
  return found.kind === 'found' ? found.element : undefined;
}

function withoutKeys(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([key]) => !keys.includes(key)));
}
