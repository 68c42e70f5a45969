import { describe, expect, it } from 'vitest';
import { TypeTextArgsSchema } from '../../../src/core/tools/actions/type-text';
import { WaitArgsSchema } from '../../../src/core/tools/actions/observe';
import { ACTION_TOOL_SPECS } from '../../../src/core/tools/registry';
import { DecisionToolSpecSchema } from '@amc/provider-clients';

describe('action tool specs', () => {
  it('Scenario: Every action tool is offered to the model as a JSON Schema object', () => {
    expect(ACTION_TOOL_SPECS.map((spec) => spec.name)).toEqual([
      'tap',
      'long_press',
      'swipe',
      'type_text',
      'press_key',
      'launch_app',
      'open_url',
      'wait',
      'describe_screen',
      'stop_app',
      'clear_app',
      'double_tap',
      'erase_text',
      'hide_keyboard',
    ]);
    for (const spec of ACTION_TOOL_SPECS) {
      expect(DecisionToolSpecSchema.parse(spec)).toEqual(spec);
      expect(spec.inputSchema.type).toBe('object');
      expect(spec.inputSchema).not.toHaveProperty('$schema');
      expect(spec.inputSchema.additionalProperties).toBe(false);
      expect(spec.description.length).toBeGreaterThan(20);
    }
  });

  it('tells the model to ground taps in the Scene', () => {
    const tap = ACTION_TOOL_SPECS.find((spec) => spec.name === 'tap')!;
    expect(tap.description).toMatch(/element_id/);
    expect(tap.description).toMatch(/device pixels/);
    const properties = tap.inputSchema.properties as Record<string, { type: string }>;
    expect(Object.keys(properties)).toEqual(['element_id', 'x', 'y']);
    expect(properties.x!.type).toBe('integer');
  });

  it('bounds wait and requires text for type_text', () => {
    expect(WaitArgsSchema.safeParse({ seconds: 60 }).success).toBe(false);
    expect(WaitArgsSchema.safeParse({ seconds: 2 }).success).toBe(true);
    expect(TypeTextArgsSchema.safeParse({ element_id: 'e3' }).success).toBe(false);
    const typeText = ACTION_TOOL_SPECS.find((spec) => spec.name === 'type_text')!;
    expect(typeText.inputSchema.required).toEqual(['text']);
  });
});
