/**
 * Edits between two words (insert, delete, substitute, or swap two neighbours: "gaol" is one edit from "goal"),
 * case aside.
 */
function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[s.length]![t.length]!;
}

/** The one known word a mistyped one most likely meant (a third of its letters wrong at most), if any. */
export function closestWord(given: string, known: readonly string[]): string | undefined {
  const allowed = Math.max(1, Math.floor(given.length / 3));
  const scored = known.map((word) => ({ word, distance: editDistance(given, word) })).filter((entry) => entry.distance <= allowed);
  scored.sort((a, b) => a.distance - b.distance);
  const [best, next] = scored;
  // Two equally close words: naming one would be a guess.
  return best && (!next || next.distance > best.distance) ? best.word : undefined;
}
