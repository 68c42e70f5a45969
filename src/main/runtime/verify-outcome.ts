import type { StepOutcome, Verification } from '../../shared/action';
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

const verified = (check: Verification['check'], fact: string): Verification => ({ status: 'verified', check, fact });
const notVerified = (check: Verification['check'], fact: string): Verification => ({ status: 'not-verified', check, fact });

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
  return input.screenChanged ? verified('screen-changed', 'the screen changed') : notVerified('screen-changed', 'the screen did not change');
}

function verifyTyping(input: VerifyInput, effects: CallEffects, after: Scene): Verification | null {
  const field = aimedAt(input, effects);
  const typed = effects.typedText ?? '';
  const now = field ? sameElement(field, after) : after.elements.find((element) => element.editable && element.focused);
  if (!now) return screenChange(input);
  const label = elementLabel(now);
  if (flat(now.text).includes(flat(typed))) return verified('text-in-field', `${label} shows ${shown(now.text)}`);
  // A password field shows dots, an input filter may reformat: a changed field is the best evidence there is.
  if (field && flat(now.text) !== flat(field.text)) return verified('text-in-field', `${label} changed to ${shown(now.text)}`);
  return notVerified('text-in-field', `${label} shows ${shown(now.text)}, not ${shown(typed)}`);
}

function verifyToggle(field: SceneElement, after: Scene, input: VerifyInput): Verification | null {
  const now = sameElement(field, after);
  if (now?.checked === undefined) return screenChange(input);
  const state = now.checked ? 'on' : 'off';
  return now.checked !== field.checked
    ? verified('checked-flipped', `${elementLabel(now)} is now ${state}`)
    : notVerified('checked-flipped', `${elementLabel(now)} is still ${state}`);
}

/** The check for one executed action; null when there is nothing to check (a failed or look-only action). */
export function verifyAction(input: VerifyInput): Verification | null {
  const effects = (input.tools ?? ACTION_TOOLS).get(input.tool)?.effectsOf(input.args);
  if (!input.outcome.ok || !effects?.verifies) return null;
  const after = input.after;
  if (!after) return notVerified('screen-changed', 'the screen could not be read after the action');
  if (effects.verifies === 'app-in-foreground' && input.outcome.app) {
    const app = input.outcome.app;
    return after.screen.package === app
      ? verified('app-in-foreground', `${app} is in the foreground`)
      : notVerified('app-in-foreground', `${after.screen.package || 'no app'} is in the foreground, not ${app}`);
  }
  if (effects.verifies === 'text-in-field') return verifyTyping(input, effects, after);
  const target = aimedAt(input, effects);
  if (effects.verifies === 'toggle-or-screen' && target?.checked !== undefined) return verifyToggle(target, after, input);
  return screenChange(input);
}
