import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';

function depcruise(target: string) {
  const result = spawnSync('node_modules/.bin/depcruise', [target, '--config', '.dependency-cruiser.cjs'], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('dependency direction', () => {
  it('Scenario: An import against the layer direction fails the check', () => {
    const { code, output } = depcruise('test/fixtures/layering');
    expect(code).not.toBe(0);
    expect(output).toContain('device-layer-direction');
    expect(output).toContain('shared-is-pure');
  });

  it('Scenario: Importing electron outside the shell and the preload fails the check', () => {
    const { code, output } = depcruise('test/fixtures/layering/src/renderer');
    expect(code).not.toBe(0);
    expect(output).toContain('electron-only-in-shell-and-preload');
  });

  it('the provider clients are reached through their entries only, and the renderer through the pure one', () => {
    const { code, output } = depcruise('test/fixtures/layering');
    expect(code).not.toBe(0);
    expect(output).toMatch(/provider-clients-through-their-entries: \S*reaches-into-provider-clients\.ts → packages\/provider-clients\/src\/tool-call-checks\.ts/);
    expect(output).toMatch(/renderer-imports-only-shared: \S*uses-provider-sdks\.ts → packages\/provider-clients\/src\/index\.ts/);
  });

});
