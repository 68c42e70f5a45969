import { ROUTE_SEPARATOR, NOTE_LIMITS } from '../../../shared/app-notes';
import { elementName, nameInLabel, type Scene, type SceneElement } from '../../../shared/scene';
import type { StepRecord, TaskRecord } from '../../../shared/task';
import { resolveApp } from '../../tools/app-resolver';

/** What one successful run teaches about one app: the goal and the names along the way, in order. */
export interface LearnedRoute {
  app: string;
  goal: string;
  route: string;
}

/** A name longer than this is cut: a route is read at a glance, and every character of it costs prompt tokens. */
const NAME_CHARS = 60;
/** Steps a route keeps; a longer run keeps its first and last steps around "…". */
const ROUTE_STEPS = { head: 3, tail: 4 } as const;

const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The element a step acted on, found in the Scene it was planned on. */
const targetOf = (step: StepRecord): SceneElement | undefined => {
  const id = step.outcome?.target?.elementId;
  return id ? step.scene?.elements.find((element) => element.id === id) : undefined;
};

/** An app's name as a person writes it: a few words, no sentence (nothing a model could say through it). */
const PLAIN_APP_NAME = /^[\p{L}\p{N}][\p{L}\p{N} &'.-]{0,29}$/u;

/**
 * The name a route gives the app a step opened: the name the step asked for when it is a plain app name that names
 * exactly that app, else the package. Never the planner's words as they came: a note reaches later prompts.
 */
function openedAppName(asked: unknown, app: string): string {
  if (typeof asked !== 'string') return app;
  const name = asked.trim();
  const exact = PLAIN_APP_NAME.test(name) && resolveApp(name, [app]);
  return exact && 'package' in exact && exact.package === app ? name : app;
}

/**
 * A step of the route: the app it opened, or the control of the app's own window it tapped. Scrolls (a list is not
 * something a person taps), typed text (it may be private) and controls of a dialog, pop-up or another window (they
 * are in the way, not on the way) teach nothing about the route. Every name comes from what the run did (the app
 * opened, the element tapped as the Scene named it), never from the planner's free text.
 */
function stepOf(step: StepRecord): { app: string; name: string } | null {
  const outcome = step.outcome;
  if (!outcome?.ok || !step.planned) return null;
  if (outcome.app) return { app: outcome.app, name: openedAppName(step.planned.args.app, outcome.app) };
  const scene: Scene | null = step.scene;
  const element = targetOf(step);
  if (!scene || !element || element.window) return null;
  if (!element.clickable && !element.longClickable && element.checked === undefined) return null;
  const name = element.editable ? fieldName(element) : (elementName(element) ?? (outcome.target?.label ? nameInLabel(outcome.target.label) : undefined));
  return name ? { app: scene.screen.package, name: clip(name, NAME_CHARS) } : null;
}

/** A text field by what it is for, never by what it holds (what was typed there may be private). */
const fieldName = (field: SceneElement): string => field.hint ?? field.desc ?? field.resourceId ?? 'a text field';

function joinRoute(names: readonly string[]): string {
  const kept = names.length > ROUTE_STEPS.head + ROUTE_STEPS.tail ? [...names.slice(0, ROUTE_STEPS.head), '…', ...names.slice(-ROUTE_STEPS.tail)] : names;
  return clip(kept.join(ROUTE_SEPARATOR), NOTE_LIMITS.routeChars);
}

/**
 * The routes a completed task took, one per app it acted in (in the order it first acted there), derived in code
 * from its record: no model call. A task that did not complete, or whose success the runtime could not confirm,
 * teaches nothing.
 */
export function learnRoutes(record: TaskRecord): LearnedRoute[] {
  if (record.status !== 'completed' || record.verification?.status === 'not-verified') return [];
  const byApp = new Map<string, string[]>();
  for (const step of record.steps) {
    const taken = stepOf(step);
    if (!taken) continue;
    const names = byApp.get(taken.app) ?? [];
    // A page and the switch on it often share a name ("Wi-Fi" > "Wi-Fi"): once is enough.
    if (names.at(-1) !== taken.name) names.push(taken.name);
    byApp.set(taken.app, names);
  }
  const goal = clip(record.goal, NOTE_LIMITS.goalChars);
  return [...byApp].map(([app, names]) => ({ app, goal, route: joinRoute(names) }));
}
