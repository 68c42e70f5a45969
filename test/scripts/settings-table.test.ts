// The README's settings table is generated from the settings catalog; npm test fails when it is stale.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, settingsTable, withCurrentTable } from '../../scripts/settings-table';
import { SETTINGS_CATALOG } from '../../src/shared/settings-catalog';

describe('README settings table', () => {
  it('Scenario: The README lists every setting as the catalog declares it', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withCurrentTable(readme), 'README.md is stale: run `npx tsx scripts/settings-table.ts`').toBe(readme);
    for (const entry of SETTINGS_CATALOG) {
      expect(settingsTable()).toContain(entry.label);
      if ('env' in entry && entry.env) expect(readme).toContain(`\`${entry.env}\``);
    }
  });

  it('a table that differs from the catalog is found and replaced', () => {
    const readme = readFileSync(README, 'utf8');
    const stale = readme.replace('`AI_PLANNER_MAX_STEPS` | whole number 1–500', '`AI_PLANNER_MAX_STEPS` | whole number 1–50');
    expect(stale).not.toBe(readme);
    expect(withCurrentTable(stale)).toBe(readme);
    expect(() => withCurrentTable('# no table here')).toThrow(/no settings table markers/);
  });
});
