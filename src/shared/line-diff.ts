/**
 * A line diff of two texts in the unified style a person reads in a terminal or a pull request (`-` removed, `+`
 * added, a few unchanged lines around each change). Longest common subsequence over lines: flow files are small.
 */

const CONTEXT = 2;

export function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  }
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i]! });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) lines.push({ mark: '+', text: b[j++]! });
    else lines.push({ mark: '-', text: a[i++]! });
  }
  const changed = lines.map((line, index) => (line.mark === ' ' ? -1 : index)).filter((index) => index >= 0);
  const near = (index: number) => changed.some((at) => Math.abs(at - index) <= CONTEXT);
  const shown: string[] = [];
  lines.forEach((line, index) => {
    if (!near(index)) {
      if (shown.at(-1) !== '…') shown.push('…');
      return;
    }
    shown.push(`${line.mark} ${line.text}`);
  });
  return changed.length ? shown : [];
}
