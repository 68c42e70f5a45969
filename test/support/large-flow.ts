// A flow file as large as the app takes (just under 1 MB) and as costly to check as such a file gets: the most steps a
// flow may have, each with long texts, a locator and a variable. For the flow-bounds tests and the bench.
import { FLOW_FILE_MAX_BYTES, FLOW_MAX_STEPS } from '../../src/shared/flow';

export function largeFlowText(maxBytes = FLOW_FILE_MAX_BYTES - 1_000): string {
  const head = 'goal: Check every row of the long list\nvars:\n  section: Network\nsteps:\n';
  const pairs = FLOW_MAX_STEPS / 2;
  const fixed = (index: number) => `  - tap: {text: "Row ${index} ", row: "\${section}"}\n  - assert: {visible: "Row ${index}"}\n`.length;
  const pad = Math.floor((maxBytes - head.length - pairs * fixed(pairs)) / pairs);
  let text = head;
  for (let index = 0; index < pairs; index++) text += `  - tap: {text: "Row ${index} ${'x'.repeat(pad)}", row: "\${section}"}\n  - assert: {visible: "Row ${index}"}\n`;
  return text;
}
