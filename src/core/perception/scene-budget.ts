import type { FoldedRepeat, SceneElement } from '../../shared/scene';

/**
 * Tokens a text costs the model, estimated: about four characters of ASCII (JSON punctuation, English) per token,
 * and a token for every other character (Chinese, Korean, emoji), which tokenizers rarely merge.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) ascii++;
    else if (code < 0xdc00 || code > 0xdfff) other++; // a surrogate pair counts once
  }
  return Math.ceil(ascii / 4 + other);
}

type Draft = Omit<SceneElement, 'id'>;

/** Where a control repeated on the rows of a list stands, for folding. */
export interface RepeatInfo {
  /** The control's label (what `foldedRepeats` counts it under). */
  label: string;
  /** Whether it is the one element its row keeps when repeats are folded. */
  keptForRow: boolean;
}

/** A label longer than this is shortened (with a mark saying how much) before anything is cut. */
export const MAX_LABEL_CHARS = 400;

export interface BudgetCut<T> {
  elements: T[];
  foldedRepeats: FoldedRepeat[];
  leftOut: number;
}

/**
 * What is cut first when a Scene must shrink, lowest first: elements under a dialog (they cannot be acted on),
 * then text that is only read, then the one control each row kept of its repeated ones; unique actions, tabs and
 * navigation (and whatever has focus) go last.
 */
function keepOrder(element: Draft, repeat: RepeatInfo | undefined): number {
  if (element.covered) return 0;
  const actionable = element.clickable || element.longClickable || element.scrollable || element.editable || element.checked !== undefined;
  if (!actionable && !element.focused) return element.text || element.desc ? 2 : 1;
  return repeat ? 3 : 4;
}

/** `text` cut to `MAX_LABEL_CHARS` with a mark; never ending inside a `\|` escape of a merged label. */
function shorten(text: string): string {
  if (text.length <= MAX_LABEL_CHARS) return text;
  let kept = text.slice(0, MAX_LABEL_CHARS);
  const trailingBackslashes = /\\*$/.exec(kept)![0].length;
  if (trailingBackslashes % 2 === 1) kept = kept.slice(0, -1);
  return `${kept}… (${text.length - kept.length} more characters)`;
}

function shortened<T extends Draft>(element: T): T {
  const long = (value: string | undefined) => value !== undefined && value.length > MAX_LABEL_CHARS;
  if (!long(element.text) && !long(element.desc)) return element;
  return {
    ...element,
    ...(element.text !== undefined && { text: shorten(element.text) }),
    ...(element.desc !== undefined && { desc: shorten(element.desc) }),
  };
}

/**
 * Fits elements in `budget` tokens, given what the rest of the Scene costs (`fixedTokens`). Each step is taken only
 * if the Scene is still too large: (1) giant labels are shortened with a mark, never dropped whole; (2) controls
 * repeated on every row of a list are folded, each row keeping one, and counted by label; (3) elements are cut by
 * `keepOrder` and then reading order, and counted. Kept elements stay in reading order; each is costed with the
 * longest id it can get.
 */
export function fitToBudget<T extends Draft>(
  all: readonly T[],
  repeats: ReadonlyArray<RepeatInfo | undefined>,
  fixedTokens: number,
  budget: number,
): BudgetCut<T> {
  const longestId = `e${all.length}`;
  const cost = (element: T) => estimateTokens(`${JSON.stringify({ id: longestId, ...element })},\n`);
  const costs = all.map(cost);
  const sum = (indices: Iterable<number>, prices: readonly number[]) => {
    let total = 0;
    for (const index of indices) total += prices[index]!;
    return total;
  };
  const everyIndex = all.map((_, index) => index);
  if (fixedTokens + sum(everyIndex, costs) <= budget) return { elements: [...all], foldedRepeats: [], leftOut: 0 };

  const short = all.map(shortened);
  const shortCosts = short.map((element, index) => (element === all[index] ? costs[index]! : cost(element)));
  if (fixedTokens + sum(everyIndex, shortCosts) <= budget) return { elements: short, foldedRepeats: [], leftOut: 0 };

  const counts = new Map<string, number>();
  const unfolded: number[] = [];
  short.forEach((_, index) => {
    const repeat = repeats[index];
    if (!repeat || repeat.keptForRow) unfolded.push(index);
    else counts.set(repeat.label, (counts.get(repeat.label) ?? 0) + 1);
  });
  const foldedRepeats = [...counts].map(([label, count]) => ({ label, count }));
  const foldedCost = foldedRepeats.length ? estimateTokens(`"foldedRepeats":${JSON.stringify(foldedRepeats)},`) : 0;
  if (fixedTokens + foldedCost + sum(unfolded, shortCosts) <= budget) return { elements: unfolded.map((index) => short[index]!), foldedRepeats, leftOut: 0 };

  const order = [...unfolded].sort((a, b) => keepOrder(short[b]!, repeats[b]) - keepOrder(short[a]!, repeats[a]) || a - b);
  const kept = new Set<number>();
  let used = fixedTokens + foldedCost;
  for (const index of order) {
    const price = shortCosts[index]!;
    if (used + price > budget) continue;
    used += price;
    kept.add(index);
  }
  return { elements: unfolded.filter((index) => kept.has(index)).map((index) => short[index]!), foldedRepeats, leftOut: unfolded.length - kept.size };
}
