import type { SceneElement } from '../../shared/scene';

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

/** Priority of an element when a Scene must be cut: what can be acted on (or has focus), then what can be read. */
function priority(element: Omit<SceneElement, 'id'>): number {
  const actionable = element.clickable || element.longClickable || element.scrollable || element.editable || element.checked !== undefined;
  if (actionable || element.focused) return 0;
  return element.text || element.desc ? 1 : 2;
}

/**
 * Picks the elements that fit in `budget` tokens, given what the rest of the Scene costs, by priority and then
 * reading order; the kept elements stay in reading order. Each element is costed with the longest id it can get.
 */
export function fitToBudget<T extends Omit<SceneElement, 'id'>>(elements: readonly T[], fixedTokens: number, budget: number): T[] {
  const longestId = `e${elements.length}`;
  const costs = elements.map((element) => estimateTokens(`${JSON.stringify({ id: longestId, ...element })},\n`));
  const total = costs.reduce((sum, cost) => sum + cost, fixedTokens);
  if (total <= budget) return [...elements];
  const order = elements.map((_, index) => index).sort((a, b) => priority(elements[a]!) - priority(elements[b]!) || a - b);
  const kept = new Set<number>();
  let used = fixedTokens;
  for (const index of order) {
    if (used + costs[index]! > budget) continue;
    used += costs[index]!;
    kept.add(index);
  }
  return elements.filter((_, index) => kept.has(index));
}
