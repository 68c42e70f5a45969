// Flow files: YAML in the short forms a person writes, checked with line and column numbers, variables filled in,
// written back so that they read as the same flow.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlowSchema, type Flow } from '../../../src/shared/flow';
import { parseFlowFile, problemLine, type FlowFileOptions } from '../../../src/core/flows/flow-file';
import { flowToYaml } from '../../../src/core/flows/flow-to-yaml';
import { ACTION_TOOL_NAMES } from '../../../src/core/tools/registry';
import { fillVariables, joinedWritten, referencedVariables, resolveVariables, writtenLiteral } from '../../../src/core/flows/flow-variables';

function read(text: string, options?: FlowFileOptions): Flow {
  const result = parseFlowFile(text, options);
  if (!result.ok) throw new Error(result.problems.map(problemLine).join('\n'));
  return result.flow;
}

function problems(text: string, options?: FlowFileOptions): string[] {
  const result = parseFlowFile(text, options);
  if (result.ok) throw new Error('the file was accepted');
  return result.problems.map(problemLine);
}

const SHORT_FORMS = `goal: Look up the weather in \${city}
app: com.android.settings
vars:
  city: Paris
steps:
  - launch_app: Settings
  - tap: {text: "Wi-Fi", type: switch, before: {checked: false}, expect: {checked: true}}
  - type_text: {target: {resourceId: search_bar}, text: "\${city}", submit: true}
  - ask_ai: {question: "Which code does the screen show?", into: code}
  - type_text: "\${code}"
  - ask_ai: Is Wi-Fi on?
  - assert: {visible: "\${city}", unchecked: {row: Bluetooth}}
  - ai: Turn on Bluetooth
  - tool: long_press
    target: {desc: More options}
  - wait: 1.5
  - swipe: {direction: up}
`;

describe('flow files', () => {
  it('Scenario: A flow file in short forms reads as the flow it means', () => {
    const flow = read(SHORT_FORMS);
    expect(FlowSchema.parse(flow)).toEqual(flow);
    expect(flow.goal).toBe('Look up the weather in Paris');
    expect(flow.steps).toEqual([
      { tool: 'launch_app', args: { app: 'Settings' } },
      { tool: 'tap', args: {}, target: { text: 'Wi-Fi', type: 'switch' }, before: { checked: false }, expect: { checked: true } },
      { tool: 'type_text', args: { text: 'Paris', submit: true }, target: { resourceId: 'search_bar' } },
      { ask_ai: { question: 'Which code does the screen show?', kind: 'extract', into: 'code' } },
      // Filled in while the flow runs, from the answer of the ask_ai step before it.
      { tool: 'type_text', args: { text: '${code}' } },
      { ask_ai: { question: 'Is Wi-Fi on?', kind: 'yes-no' } },
      { assert: { visible: 'Paris', unchecked: { row: 'Bluetooth' } } },
      { ai: 'Turn on Bluetooth' },
      { tool: 'long_press', args: {}, target: { desc: 'More options' } },
      { tool: 'wait', args: { seconds: 1.5 } },
      { tool: 'swipe', args: { direction: 'up' } },
    ]);
    expect(fillVariables(flow.steps[4], { code: '4711' })).toEqual({ tool: 'type_text', args: { text: '4711' } });
  });

  it('Scenario: A doubled dollar before a brace is a literal dollar-brace, never a variable', () => {
    const read = parseFlowFile(
      'goal: Pay $${PRICE}\nvars:\n  who: "${HOME} $${x}"\nsteps:\n  - tap: {text: "Price $${PRICE}"}\n  - type_text: "${who} costs $$${PRICE}"\n',
    );
    expect(read).toMatchObject({ ok: true });
    if (!read.ok) return;
    // A value filled in is written too: its own `${` stays literal when the step is carried out.
    expect(read.flow.steps.map((step) => resolveVariables(step, {}))).toEqual([
      { tool: 'tap', args: {}, target: { text: 'Price ${PRICE}' } },
      { tool: 'type_text', args: { text: '${HOME} $${x} costs $${PRICE}' } },
    ]);
    expect(referencedVariables('$${a} ${b} $$${c}')).toEqual(['b']);
    expect(writtenLiteral('Total: ${SUM} and $${X}')).toBe('Total: $${SUM} and $$${X}');
    expect(resolveVariables(joinedWritten(writtenLiteral('echo $'), '{HOME}'), {})).toBe('echo ${HOME}');
    // Without the escape the screen's words would still be read as a variable with no value.
    expect(problems('goal: x\nsteps:\n  - tap: {text: "Price ${PRICE}"}\n')).toEqual([expect.stringContaining('`${PRICE}` has no value')]);
  });

  it('Scenario: A broken flow file is refused with the line and column of each problem', () => {
    expect(problems('goal: x\nsteps:\n  - tap: {text: "Wi-Fi"\n  - ai: next\n')).toEqual([
      'line 4, column 3: not valid YAML: Flow map in block collection must be sufficiently indented and end with a }',
    ]);
    const file = [
      'goal: Turn on Wi-Fi', //                         1
      'steps:', //                                      2
      '  - launch_app: Settings', //                    3
      '  - tap: {type: switch}', //                     4
      '  - tapp: {text: Wi-Fi}', //                     5
      '  - tap: {text: Wi-Fi, element_id: e3}', //      6
      '  - long_press: {}', //                          7
      '  - assert: {visble: Connected}', //             8
      '  - wait: a while', //                           9
      '  - tool: tapp', //                              10
      '  - press_key: sideways', //                     11
      '  - ask_ai: {question: Code?, kind: yes-no, into: code}', // 12
      'colour: blue', //                                13
    ].join('\n');
    // The tools are named as the registry lists them, so a new tool changes neither message's wording.
    const TOOLS = ACTION_TOOL_NAMES.join(', ');
    expect(problems(file)).toEqual([
      'line 4, column 10: a locator needs at least one of resourceId, text, desc, hint or row',
      `line 5, column 5: \`tapp\` is not a kind of step: a step is a tool (${TOOLS}), ai, assert, ask_ai, copy_text, wait_until, wait_for_settle, scroll_until_visible, run_flow, repeat or retry`,
      "line 6, column 24: `element_id` names an element of one turn's screen only; give a target instead (text, desc, resourceId, hint or row)",
      'line 7, column 17: `long_press` needs a target (text, desc, resourceId, hint or row), or x and y',
      'line 8, column 14: `visble` is not a field of `assert`',
      'line 9, column 11: `wait` should be a number',
      `line 10, column 11: \`tapp\` is not a tool; the tools are ${TOOLS}`,
      'line 11, column 16: `press_key` must be one of `back`, `home`, `enter`, `recents`, `delete`, `forward_delete`, `tab`, `escape` … (26 in all)',
      'line 12, column 51: `into` keeps an extracted answer: it goes with kind: extract, not yes-no',
      'line 13, column 1: `colour` is not a field of a flow',
    ]);
    expect(problems('steps: []\n')).toEqual(['line 1, column 1: `goal` is missing (text)', 'line 1, column 8: `steps` needs at least 1 item']);
    expect(problems('- just a list\n')).toEqual(['line 1, column 1: a flow file is a map with `goal:` and `steps:` (a list of steps)']);
  });

  it('Scenario: Variables come from vars and --var, and one without a value is refused', () => {
    const file = 'goal: Greet ${name}\nvars:\n  name: Ana\nsteps:\n  - type_text: {text: "Hello ${name}"}\n';
    expect(read(file).steps[0]).toEqual({ tool: 'type_text', args: { text: 'Hello Ana' } });
    expect(read(file, { vars: { name: 'Bo' } })).toMatchObject({ goal: 'Greet Bo', steps: [{ args: { text: 'Hello Bo' } }] });
    // A name used but not declared takes its value from --var.
    expect(read('goal: g\nsteps:\n  - type_text: "${pin}"\n', { vars: { pin: '1234' } }).steps[0]).toEqual({ tool: 'type_text', args: { text: '1234' } });
    expect(problems('goal: g\nsteps:\n  - ai: x\n  - type_text: "${pin}"\n')).toEqual([
      'line 4, column 16: `${pin}` has no value: set it under `vars:` or give `--var pin=VALUE`',
    ]);
    expect(problems(file, { vars: { nmae: 'Bo' } })).toEqual(['--var nmae: this flow has no variable `nmae` (its variables: name)']);
    expect(problems('goal: g\nsteps:\n  - type_text: "${code}"\n  - ask_ai: {question: Code?, into: code}\n')).toEqual([
      'line 3, column 16: `${code}` is used before the ask_ai step that extracts it',
    ]);
  });

  it('Scenario: A flow written back as YAML reads back as the same flow', () => {
    const flow = read(SHORT_FORMS);
    const recorded: Flow = {
      ...flow,
      recordedFrom: 'task-1',
      steps: [
        ...flow.steps,
        { tool: 'tap', args: {}, target: { row: 'Wi-Fi', type: 'switch', distinguishedBy: { checked: false, follows: 'Connections' } }, before: { checked: false }, why: 'The Wi-Fi switch is off; tapping it turns Wi-Fi on, which is what the goal asks for.' },
        { tool: 'tap', args: { x: 10, y: 20 } },
        { tool: 'describe_screen', args: {} },
      ],
    };
    const yaml = flowToYaml(recorded);
    expect(yaml).toContain('  - tap: { text: Wi-Fi, type: switch, before: { checked: false }, expect: { checked: true } }\n');
    expect(yaml).toContain('  - launch_app: Settings\n');
    expect(yaml).toContain('  - ask_ai: Is Wi-Fi on?\n');
    // type_text's own `text` argument keeps its target apart.
    expect(yaml).toContain('  - type_text: { target: { resourceId: search_bar }, text: Paris, submit: true }\n');
    expect(yaml).toMatch(/^# An Agentic Mobile Control flow/);
    expect(read(yaml)).toEqual(recorded);
  });
});

describe("the README's flow file example", () => {
  it('reads as a flow, with its variable filled in', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Flow files'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const flow = read(example!, { vars: { title: 'Bananas' } });
    expect(flow.goal).toBe('Write the note Bananas');
    expect(flow.steps).toHaveLength(8);
  });
});

describe('control flow in a flow file', () => {
  const included = 'goal: Open a page\nvars:\n  page: Display\nsteps:\n  - launch_app: Settings\n  - tap: {text: "${page}"}\n';
  const include = (file: string) => (file === 'page.yaml' ? { text: included } : { problem: { message: 'it cannot be read: there is no such file' } });

  it('Scenario: Blocks read as the steps they hold, and a problem inside one or in another file is refused with its line', () => {
    const good = parseFlowFile(
      'goal: Blocks\nsteps:\n  - run_flow: page.yaml\n    vars: {page: Network}\n  - repeat:\n      while: {visible: Next}\n      steps:\n        - tap: {text: Next}\n  - retry:\n      steps:\n        - assert: {visible: Done}\n  - scroll_until_visible: About phone\n  - tap: {point: "50%,50%", optional: true}\n',
      { include },
    );
    expect(good.ok && good.flow.steps).toEqual([
      { run_flow: { file: 'page.yaml', vars: { page: 'Network' }, steps: [{ tool: 'launch_app', args: { app: 'Settings' } }, { tool: 'tap', args: {}, target: { text: 'Network' } }] } },
      { repeat: { while: { visible: 'Next' }, steps: [{ tool: 'tap', args: {}, target: { text: 'Next' } }] } },
      { retry: { max: 3, steps: [{ assert: { visible: 'Done' } }] } },
      { scroll_until_visible: { target: { text: 'About phone' }, direction: 'down' } },
      { tool: 'tap', args: {}, point: '50%,50%', optional: true },
    ]);
    expect(
      problems('goal: Blocks\nsteps:\n  - repeat:\n      times: 2\n      steps:\n        - tapp: {text: Next}\n  - run_flow: gone.yaml\n  - retry: {max: 5, steps: [{wait: 1}]}\n  - run_flow: page.yaml\n    vars: {pgae: Network}\n', { include }),
    ).toEqual([
      expect.stringMatching(/^line 6, column 11: `tapp` is not a kind of step/),
      'line 7, column 15: run_flow gone.yaml: it cannot be read: there is no such file',
      expect.stringMatching(/^line 8, column \d+: .*3/),
      'line 9, column 15: run_flow page.yaml: --var pgae: this flow has no variable `pgae` (its variables: page)',
    ]);
    // A flow given as text, without its folder, cannot read another file.
    expect(problems('goal: x\nsteps:\n  - run_flow: page.yaml\n')).toEqual([expect.stringMatching(/^line 3, column 15: run_flow page\.yaml: another file can only be read beside a flow file/)]);
  });
});
