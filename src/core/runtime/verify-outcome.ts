import type { StepOutcome, Verification } from '../../shared/action';
import { say, type Saying } from '../../shared/said';
import { elementLabel, type Scene, type SceneElement } from '../../shared/scene';
import { ACTION_TOOLS } from '../tools/registry';
import type { CallEffects, ToolCatalog } from '../tools/tool';

/**
 * Verified outcomes: after an action, what the runtime can check from the next turn's Scene (code, not the model).
 * Typed text is in its field, a switch's `checked` flipped, a launched app is in the foreground, a tap or a
 * swipe changed the screen. Pure.
 */

export interface VerifyInput {
  tool: string;
  args: Record<string, unknown>;
  outcome: StepOutcome;
  /** The Scene the action was planned on, and the one observed after it. */
  before: Scene | null;
  after: Scene | null;
  screenChanged: boolean | null;
  /** Where the tool is declared (default: the registry). */
  tools?: ToolCatalog;
}

const verified = (check: Verification['check'], fact: Saying): Verification => ({ status: 'verified', check, fact: fact.text, said: fact.said });
const notVerified = (check: Verification['check'], fact: Saying): Verification => ({ status: 'not-verified', check, fact: fact.text, said: fact.said });

const flat = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const shown = (text: string | undefined) => {
  const value = flat(text);
  return value ? `"${value.length > 80 ? `${value.slice(0, 79)}…` : value}"` : 'nothing';
};

/** The element of `before` an action aimed at: by id, else (typing) the focused field. */
function aimedAt(input: VerifyInput, effects: CallEffects): SceneElement | undefined {
  const id = input.outcome.target?.elementId ?? (typeof input.args.element_id === 'string' ? input.args.element_id : undefined);
  const elements = input.before?.elements ?? [];
  if (id) return elements.find((element) => element.id === id);
  if (effects.target === 'text-field') return elements.find((element) => element.editable && element.focused);
  return undefined;
}

/** The same element in the next Scene: same resource id and type (and place, when several), else the same place and type. */
function sameElement(element: SceneElement, after: Scene): SceneElement | undefined {
  const sameBounds = (other: SceneElement) => other.bounds.every((value, i) => value === element.bounds[i]);
  const candidates = after.elements.filter((other) => other.type === element.type);
  if (element.resourceId) {
    const byId = candidates.filter((other) => other.resourceId === element.resourceId);
    if (byId.length === 1) return byId[0];
    const placed = byId.find(sameBounds);
    if (placed) return placed;
  }
  return candidates.find(sameBounds);
}

function screenChange(input: VerifyInput): Verification | null {
  if (input.screenChanged === null) return null;
  return input.screenChanged ? verified('screen-changed', say('verify.screenChanged')) : notVerified('screen-changed', say('verify.screenUnchanged'));
}

function verifyTyping(input: VerifyInput, effects: CallEffects, after: Scene): Verification | null {
  const field = aimedAt(input, effects);
  const typed = effects.typedText ?? '';
  const now = field ? sameElement(field, after) : after.elements.find((element) => element.editable && element.focused);
  if (!now) return screenChange(input);
  const label = elementLabel(now);
  if (flat(now.text).includes(flat(typed))) return verified('text-in-field', say('verify.fieldShows', { element: label, text: shown(now.text) }));
  // A password field shows dots, an input filter may reformat: a changed field is the best evidence there is.
  if (field && flat(now.text) !== flat(field.text)) return verified('text-in-field', say('verify.fieldChanged', { element: label, text: shown(now.text) }));
  return notVerified('text-in-field', say('verify.fieldShowsOther', { element: label, text: shown(now.text), typed: shown(typed) }));
}

function verifyToggle(field: SceneElement, after: Scene, input: VerifyInput): Verification | null {
  const now = sameElement(field, after);
  if (now?.checked === undefined) return screenChange(input);
  const element = { element: elementLabel(now) };
  if (now.checked !== field.checked) return verified('checked-flipped', say(now.checked ? 'verify.switchNowOn' : 'verify.switchNowOff', element));
  return notVerified('checked-flipped', say(now.checked ? 'verify.switchStillOn' : 'verify.switchStillOff', element));
}

/** The check for one executed action; null when there is nothing to check (a failed or look-only action). */
export function verifyAction(input: VerifyInput): Verification | null {
  const effects = (input.tools ?? ACTION_TOOLS).get(input.tool)?.effectsOf(input.args);
  if (!input.outcome.ok || !effects?.verifies) return null;
  const after = input.after;
  if (!after) return notVerified('screen-changed', say('verify.screenUnreadable'));
  if (effects.verifies === 'app-in-foreground' && input.outcome.app) {
    const app = input.outcome.app;
    if (after.screen.package === app) return verified('app-in-foreground', say('verify.appInFront', { app }));
    return notVerified('app-in-foreground', after.screen.package ? say('verify.otherAppInFront', { front: after.screen.package, app }) : say('verify.noAppInFront', { app }));
  }
  if (effects.verifies === 'text-in-field') return verifyTyping(input, effects, after);
  const target = aimedAt(input, effects);
  if (effects.verifies === 'toggle-or-screen' && target?.checked !== undefined) return verifyToggle(target, after, input);
  return screenChange(input);
}
