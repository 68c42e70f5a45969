// Every string a window can send is bounded by the contract itself, so an oversized value is refused before
// any handler (or error message) sees it.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { methodNames, methods, WebRequestSchema } from '../../../src/shared/contract';
import { SettingsSchema } from '../../../src/shared/settings';
import { createRouter } from '../../../src/app/ipc/router';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}

/** The paths of every string in a schema that has no maximum length. */
function unboundedStrings(schema: z.ZodType, path = 'input'): string[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'string':
      return (schema as z.ZodString).maxLength === null ? [path] : [];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, value]) => unboundedStrings(value, `${path}.${key}`));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return unboundedStrings(def.innerType!, path);
    case 'array':
      return unboundedStrings(def.element!, `${path}[]`);
    case 'union':
      return (def.options ?? []).flatMap((option) => unboundedStrings(option, path));
    case 'pipe':
      return unboundedStrings(def.in!, path);
    case 'record':
      return [...unboundedStrings(def.keyType!, `${path}{key}`), ...unboundedStrings(def.valueType!, `${path}{}`)];
    default:
      return [];
  }
}

describe('contract length limits', () => {
  it('Scenario: Every string a window sends has a length limit', () => {
    const unbounded = methodNames.flatMap((name) => unboundedStrings(methods[name].input, name));
    // The settings draft is checked field by field against the Settings schema: its strings count too.
    unbounded.push(...unboundedStrings(SettingsSchema, 'settings'));
    unbounded.push(...unboundedStrings(WebRequestSchema, 'request'));
    expect(unbounded).toEqual([]);
  });

  it('the walker finds an unbounded string where there is one', async () => {
    const { z } = await import('zod');
    expect(unboundedStrings(z.object({ a: z.string().max(3), b: z.array(z.string().optional()) }))).toEqual(['input.b[]']);
  });

  it('Scenario: A 100,000-character serial is refused without being echoed', async () => {
    const serial = 'S'.repeat(100_000);
    let handled = 0;
    const router = createRouter({
      'mirror.start': () => {
        handled++;
        throw new Error('not reached');
      },
      'tasks.run': () => {
        handled++;
        throw new Error('not reached');
      },
    });
    for (const [method, input] of [
      ['mirror.start', { serial }],
      ['tasks.run', { serial, goal: 'open settings' }],
    ] as const) {
      const result = await router.call(method, input, { transport: 'web' });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('invalid_input');
      expect(result.error.issues).toEqual([expect.stringMatching(/^serial: must be at most 300 characters$/)]);
      expect(JSON.stringify(result).length).toBeLessThan(500);
    }
    expect(handled).toBe(0);
  });
});
