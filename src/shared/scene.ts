import { z } from 'zod';

/**
 * The Scene: what the planner reads about the phone each turn (built by src/main/perception from
 * `uiautomator dump`). Its JSON form is deliberately compact because it is sent to the model every turn:
 * optional strings are omitted when empty and boolean flags are present only when true.
 */

/** `[left, top, right, bottom]` in device pixels (the same space as `input tap x y`). */
export const BoundsSchema = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

/** A flag that is either set (`true`) or left out of the JSON. */
const flag = z.literal(true).optional();

export const SceneElementSchema = z.object({
  /** Per-turn id, `e1`, `e2`, ... in reading order; only valid for the turn whose Scene carried it. */
  id: z.string().regex(/^e[1-9]\d*$/),
  /** Short class name, e.g. `Button`, `TextView`, `EditText`, `Switch`, `RecyclerView`. */
  type: z.string().min(1),
  text: z.string().min(1).optional(),
  /** content-desc (accessibility label), e.g. the name of an icon-only button. */
  desc: z.string().min(1).optional(),
  /** Placeholder of an editable field, when the platform reports it separately from `text`. */
  hint: z.string().min(1).optional(),
  /** Resource id without the `package:id/` prefix, e.g. `search_bar`. */
  resourceId: z.string().min(1).optional(),
  bounds: BoundsSchema,
  clickable: flag,
  longClickable: flag,
  scrollable: flag,
  editable: flag,
  focused: flag,
  selected: flag,
  password: flag,
  /** Present exactly when the element is checkable (switch, checkbox, radio): its current state. */
  checked: z.boolean().optional(),
  /** Present (true) only when the element is disabled; enabled is the default. */
  disabled: flag,
});

export const ScreenFactsSchema = z.object({
  /** Current screen size in device pixels, already rotated (landscape: width > height). */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  orientation: z.enum(['portrait', 'landscape']),
  /** Foreground app package, e.g. `com.android.settings`. */
  package: z.string(),
  /** Foreground activity (short form when it is inside `package`, e.g. `.Settings`), when known. */
  activity: z.string().optional(),
  keyboardShown: z.boolean(),
});

export const SceneSchema = z.object({
  screen: ScreenFactsSchema,
  elements: z.array(SceneElementSchema),
});

export type Bounds = z.infer<typeof BoundsSchema>;
export type SceneElement = z.infer<typeof SceneElementSchema>;
export type ScreenFacts = z.infer<typeof ScreenFactsSchema>;
export type Scene = z.infer<typeof SceneSchema>;

/**
 * The exact text the planner receives: compact JSON, one element per line so the model can scan it and a
 * person can read it in logs. Parses back with `JSON.parse` into a valid Scene.
 */
export function sceneToJson(scene: Scene): string {
  const elements = scene.elements.map((element) => JSON.stringify(element)).join(',\n');
  return `{"screen":${JSON.stringify(scene.screen)},"elements":[${elements ? `\n${elements}\n` : ''}]}`;
}

/** The centre of an element's bounds, in device pixels. */
export function boundsCenter([left, top, right, bottom]: Bounds): { x: number; y: number } {
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}

/** A short human label for an element (for timelines and error messages). */
export function elementLabel(element: SceneElement): string {
  const name = element.text ?? element.desc ?? element.hint ?? element.resourceId;
  return name ? `${element.type} "${name}"` : element.type;
}
