import { z } from 'zod';
import { schemaMessage } from '../schema-message';
import { LocatorSchema } from '../flow';
import { SceneSchema } from '../scene';
import { defineMethods } from './define';

/**
 * Inspect: one screen's elements as the model would see them (the Scene, with its ids), and for each element the step
 * that acts on it in both flow syntaxes. No screenshot bytes travel or are kept (seed D5): the window outlines the
 * elements over its live mirror, or over a box layout drawn from the bounds.
 */

/** Where the inspected Scene came from: a layout read now, the last one a running task read, or a step in History. */
export const INSPECT_SOURCES = ['phone', 'task', 'history'] as const;
export type InspectSource = (typeof INSPECT_SOURCES)[number];

/** Why Maestro's words cannot name an element: no locator names it alone, it needs its row or neighbours, or it has no text or id. */
export const MAESTRO_GAPS = ['no-locator', 'row-or-neighbours', 'no-text-or-id'] as const;

/** A tap on one element, as a step of each flow syntax (the same one a recorded tap on it keeps). */
export const ElementLocatorLinesSchema = z.object({
  /** The element's Scene id (`e12`). */
  id: z.string(),
  /** The smallest locator that names it alone on its Scene; null when none does (the step then taps its point). */
  locator: LocatorSchema.nullable(),
  /** Our flow step, e.g. `- tap: { app: com.android.settings, text: Wi-Fi, type: Switch }`. */
  ours: z.string(),
  /** The Maestro command, e.g. `- tapOn: { text: Wi-Fi }`; null where Maestro cannot name it (`maestroGap` says why). */
  maestro: z.string().nullable(),
  maestroGap: z.enum(MAESTRO_GAPS).nullable(),
});
export type ElementLocatorLines = z.infer<typeof ElementLocatorLinesSchema>;

export const InspectedScreenSchema = z.object({
  source: z.enum(INSPECT_SOURCES),
  serial: z.string().nullable(),
  /** The task and step the Scene belongs to (source `task` or `history`). */
  taskId: z.string().nullable(),
  step: z.number().int().positive().nullable(),
  /** When the layout was read (ms since the epoch). */
  readAt: z.number(),
  scene: SceneSchema,
  /** One per element of the Scene, in the same order. */
  locators: z.array(ElementLocatorLinesSchema),
});
export type InspectedScreen = z.infer<typeof InspectedScreenSchema>;

export const inspectMethods = defineMethods({
  /**
   * The phone's screen now: a fresh layout read when the person has the phone; while a task drives it, the last
   * layout that task read (no second read competes with the agent's).
   */
  'inspect.screen': {
    input: z.object({ serial: z.string().trim().min(1, schemaMessage('schema.chooseDevice')).max(300) }).strict(),
    output: InspectedScreenSchema,
  },
  /** The Scene of one step of a task in History (its screen before the step's action). */
  'inspect.step': {
    input: z.object({ id: z.string().trim().min(1).max(200), step: z.number().int().positive().max(1_000_000) }).strict(),
    output: InspectedScreenSchema,
  },
});
