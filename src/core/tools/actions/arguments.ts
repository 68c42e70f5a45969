import { z } from 'zod';

/** Argument pieces several tools share, described for the model once. */

export const elementId = z
  .string()
  .regex(/^e[1-9]\d*$/, 'element_id is an id from the current Scene, like "e12"')
  .describe('Id of an element in the current Scene (e.g. "e12"). Preferred over coordinates.');

export const coordinate = (axis: 'x' | 'y') =>
  z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .describe(`${axis.toUpperCase()} in device pixels (the Scene's coordinate space, within its bounds' range).`);

/** Where a tap-like action aims: an element id, or both coordinates (the Executor checks which was given). */
export const pointArgs = {
  element_id: elementId.optional(),
  x: coordinate('x').optional(),
  y: coordinate('y').optional(),
};

export const GROUNDING =
  'Prefer element_id from the current Scene; ids change every turn. Coordinates are device pixels, the space of ' +
  'the Scene\'s bounds [left, top, right, bottom].';
