import { z } from 'zod';

/**
 * The Scene: what the planner reads about the phone each turn (built by src/core/perception from
 * `uiautomator dump`). Its JSON form is deliberately compact because it is sent to the model every turn:
 * optional strings are omitted when empty and boolean flags are present only when true.
 */

/** `[left, top, right, bottom]` in device pixels (the same space as `input tap x y`). */
export const BoundsSchema = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

/** A flag that is either set (`true`) or left out of the JSON. */
const flag = z.literal(true).optional();

export const WINDOW_KINDS = ['dialog', 'popup', 'system', 'other-app'] as const;
export type WindowKind = (typeof WINDOW_KINDS)[number];

export const SceneElementSchema = z.object({
  /** Per-turn id, `e1`, `e2`, ... in reading order; only valid for the turn whose Scene carried it. */
  id: z.string().regex(/^e[1-9]\d*$/),
  /** Short class name, e.g. `Button`, `TextView`, `EditText`, `Switch`, `RecyclerView`. */
  type: z.string().min(1),
  /**
   * The element's text. A clickable row (or a list item) also carries the labels of its plain children here, each
   * once, in reading order, joined by `" | "`. A pipe or backslash inside any text is escaped with a backslash,
   * so `labelParts` always gives the parts back whatever punctuation they contain. An editable field's text is its
   * content, verbatim (nothing folds into a field).
   */
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
  /**
   * Present when the element has no text, desc or hint of its own although it can be acted on: a guess at what it
   * is, from its resource id (`iv_search` -> "search") or its class ("icon button"). The screenshot says more.
   */
  unlabeled: z.string().min(1).optional(),
  /**
   * The window the element belongs to, when it is not the foreground app's main window: a `dialog` or `popup` over
   * the app, the `system` UI (navigation bar, notification shade), or an `other-app` window (another package).
   */
  window: z.enum(WINDOW_KINDS).optional(),
  /**
   * For a control repeated on every row of a list ("Add star", "Reply"): the label of its own row ("Buy milk"),
   * which tells one "Add star" from the next.
   */
  row: z.string().min(1).optional(),
  /**
   * Present (true) when the element cannot be reached: a modal dialog is in front (`screen.dialog`; everything of the
   * app beneath it is covered, wherever it lies), or a popup lies over it. It carries no action flags (clickable,
   * editable, ...), only what it says, and an action naming it is refused.
   */
  covered: flag,
});

/** What the status bar said, condensed: its icons are not elements. */
export const StatusBarSchema = z.object({
  /** The clock as shown, e.g. `12:30`. */
  time: z.string().min(1).optional(),
  /** Battery level in percent. */
  battery: z.number().int().min(0).max(100).optional(),
  charging: flag,
  /** Connectivity icons as they describe themselves, e.g. `Wifi signal full`, `Phone two bars`, `LTE`. */
  network: z.array(z.string().min(1)).optional(),
  /** How many notification icons the status bar shows. */
  notifications: z.number().int().nonnegative().optional(),
  /** Other status icons, e.g. `Bluetooth on`, `Alarm set for 7:00 AM`, `Do not disturb`. */
  indicators: z.array(z.string().min(1)).optional(),
});

export const ScreenFactsSchema = z.object({
  /** Current screen size in device pixels, already rotated (landscape: width > height). */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  orientation: z.enum(['portrait', 'landscape']),
  /** Display rotation from the natural orientation in quarter turns (1 = 90 degrees), present when not 0. */
  rotation: z.number().int().min(1).max(3).optional(),
  /** Foreground app package, e.g. `com.android.settings`. */
  package: z.string(),
  /** Foreground activity (short form when it is inside `package`, e.g. `.Settings`), when known. */
  activity: z.string().optional(),
  keyboardShown: z.boolean(),
  /**
   * Present when a modal window is in front (a dialog, a bottom sheet on a scrim, a system dialog): what it says
   * first, e.g. its title. Everything beneath it is `covered`: only the dialog's own elements can be acted on.
   */
  dialog: z.string().min(1).optional(),
  /** Time, battery, network and notifications from the status bar, when one was on screen. */
  status: StatusBarSchema.optional(),
});

/**
 * The default most tokens a Scene may take (Settings: `perception.sceneTokenBudget`). Of 35 real screens
 * (../shared/real-dumps/from-project) 34 take 130-2,160 whole and fit, a 112-element tablet panel takes 3,390; at 2,000 three
 * of them were cut. 3,000 keeps ordinary screens whole at about two screenshots' worth of tokens per turn, and
 * a WebView page or a large tablet screen, which would take several thousand every turn, is folded and cut.
 */
export const DEFAULT_SCENE_TOKEN_BUDGET = 3000;

/** How the UI was read: `uiautomator dump` (waits for the screen to go idle) or yadb's layout dump (does not). */
export const DUMP_SOURCES = ['uiautomator', 'yadb'] as const;
export type DumpSource = (typeof DUMP_SOURCES)[number];

/** Controls repeated on every row of a list that were folded to fit the budget: each row kept one of its controls. */
export const FoldedRepeatSchema = z.object({
  /** The control's label, e.g. `Mark as complete`. */
  label: z.string().min(1),
  /** How many of them were folded (not listed). */
  count: z.number().int().positive(),
});

export const SceneSchema = z.object({
  screen: ScreenFactsSchema,
  /** Which dump the Scene was built from (present when the Observer read a phone). */
  dump: z.enum(DUMP_SOURCES).optional(),
  /** Repeated row controls folded to keep the Scene within its token budget (present only when some were). */
  foldedRepeats: z.array(FoldedRepeatSchema).optional(),
  /** How many elements were left out to keep the Scene within its token budget (present only when some were). */
  elementsLeftOut: z.number().int().positive().optional(),
  elements: z.array(SceneElementSchema),
});

export type Bounds = z.infer<typeof BoundsSchema>;
export type SceneElement = z.infer<typeof SceneElementSchema>;
export type ScreenFacts = z.infer<typeof ScreenFactsSchema>;
export type StatusBar = z.infer<typeof StatusBarSchema>;
export type FoldedRepeat = z.infer<typeof FoldedRepeatSchema>;
export type Scene = z.infer<typeof SceneSchema>;

/**
 * The exact text the planner receives: compact JSON, one element per line so the model can scan it and a
 * person can read it in logs. Parses back with `JSON.parse` into a valid Scene.
 */
export function sceneToJson(scene: Scene): string {
  const elements = scene.elements.map((element) => JSON.stringify(element)).join(',\n');
  const dump = scene.dump ? `"dump":${JSON.stringify(scene.dump)},` : '';
  const folded = scene.foldedRepeats?.length ? `"foldedRepeats":${JSON.stringify(scene.foldedRepeats)},` : '';
  const leftOut = scene.elementsLeftOut ? `"elementsLeftOut":${scene.elementsLeftOut},` : '';
  return `{"screen":${JSON.stringify(scene.screen)},${dump}${folded}${leftOut}"elements":[${elements ? `\n${elements}\n` : ''}]}`;
}

/**
 * What tells one screen from another: the Scene without the status bar's clock and battery, which change on their
 * own, and without the dump it was read by (an action that did nothing must not look as if it changed the screen).
 */
export function sceneFingerprint(scene: Scene): string {
  const { dump: _dump, ...rest } = scene;
  const { status, ...screen } = scene.screen;
  const { time: _time, battery: _battery, charging: _charging, ...steady } = status ?? {};
  return JSON.stringify({ ...rest, screen: { ...screen, status: steady } });
}

const LABEL_JOINER = ' | ';

/** Joins the parts of a label, escaping each pipe and backslash inside a part so that `labelParts` can split it again. */
export function joinLabelParts(parts: readonly string[]): string {
  return parts.map((part) => part.replace(/[\\|]/g, (char) => `\\${char}`)).join(LABEL_JOINER);
}

/** The parts of a (possibly merged) `text`: the inverse of `joinLabelParts`. */
export function labelParts(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length) current += text[++index];
    else if (text.startsWith(LABEL_JOINER, index)) {
      parts.push(current);
      current = '';
      index += LABEL_JOINER.length - 1;
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** An element taking at least this share of the screen is a surface to draw on, not a control to aim at. */
const SURFACE_SHARE = 0.5;
const boundsArea = ([left, top, right, bottom]: Bounds) => Math.max(0, right - left) * Math.max(0, bottom - top);

/**
 * Whether the screen has no usable UI tree: the app draws everything itself (a game, a canvas, a Flutter app without
 * semantics), so the app's elements are only surfaces covering most of the screen (or there are none at all while
 * an app is in front). Nothing on it can be named by an element id: the screenshot is all there is to aim by.
 */
export function hasNoUsableTree(scene: Scene): boolean {
  if (scene.screen.dialog || !scene.screen.package) return false;
  const appElements = scene.elements.filter((element) => element.window !== 'system' && !element.covered);
  if (appElements.length === 0) return scene.elements.length === 0;
  const screenArea = scene.screen.width * scene.screen.height;
  return appElements.every((element) => boundsArea(element.bounds) >= screenArea * SURFACE_SHARE);
}

/** The centre of an element's bounds, in device pixels. */
export function boundsCenter([left, top, right, bottom]: Bounds): { x: number; y: number } {
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}

/** Shows people where one part of a merged label ends and the next begins (they never parse it back). */
const PART_SEPARATOR_FOR_PEOPLE = ' \u00b7 ';

/**
 * What an element says, as a person reads it: the parts of its text (unescaped, joined by " · "; an editable
 * field's content as it is), else its description, else its placeholder. What the wireframes draw in a box.
 */
export function elementCaption(element: Pick<SceneElement, 'text' | 'desc' | 'hint' | 'editable'>): string | undefined {
  if (element.text !== undefined) return element.editable ? element.text : labelParts(element.text).join(PART_SEPARATOR_FOR_PEOPLE);
  return element.desc ?? element.hint;
}

/**
 * What a person calls an element: the first part of what it says ("Network & internet", not its summary line),
 * else its description, placeholder or resource id; never its widget class. Undefined when it says nothing.
 */
export function elementName(element: Pick<SceneElement, 'text' | 'desc' | 'hint' | 'editable' | 'unlabeled' | 'resourceId'>): string | undefined {
  // A field is named by its placeholder or description; its text is what was typed into it.
  if (element.editable) return element.hint ?? element.desc ?? element.unlabeled ?? element.text ?? element.resourceId;
  const text = element.text !== undefined ? labelParts(element.text).find((part) => part.trim()) : undefined;
  return text ?? element.desc ?? element.hint ?? element.unlabeled ?? element.resourceId;
}

/** The name inside a label `elementLabel` wrote (`LinearLayout "Network & internet · Mobile"` → `Network & internet`). */
export function nameInLabel(label: string): string | undefined {
  const quoted = /^\S+ "([\s\S]*)"$/.exec(label)?.[1];
  return quoted?.split(PART_SEPARATOR_FOR_PEOPLE)[0] || undefined;
}

/** A short label for an element with its widget class (for the wireframe and the model's messages). */
export function elementLabel(element: SceneElement): string {
  const name = elementCaption(element) ?? element.unlabeled ?? element.resourceId;
  return name ? `${element.type} "${name}"` : element.type;
}
