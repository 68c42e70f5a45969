/** Approximate text metrics for the sans-serif UI font, good enough to size, wrap and ellipsize labels. */

const AVERAGE_ADVANCE = 0.53;
const WIDE_ADVANCE = 1.0;

function advance(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code > 0x2e80) return WIDE_ADVANCE;
  if ('il.,:;\'|!'.includes(char)) return 0.28;
  if ('mwMW'.includes(char)) return 0.83;
  if (char >= 'A' && char <= 'Z') return 0.66;
  return AVERAGE_ADVANCE;
}

export function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const char of text) width += advance(char);
  return width * fontSize;
}

/** Cuts the text to fit `maxWidth`, ending with an ellipsis when shortened. */
export function ellipsize(text: string, maxWidth: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  let result = '';
  const budget = maxWidth - textWidth('…', fontSize);
  for (const char of text) {
    if (textWidth(result + char, fontSize) > budget) break;
    result += char;
  }
  return result + '…';
}

/** Greedy word wrap; explicit newlines are kept. */
export function wrapText(text: string, maxWidth: number, fontSize: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && textWidth(candidate, fontSize) > maxWidth) {
        lines.push(line);
        line = word;
      } else {
        line = candidate;
      }
    }
    lines.push(line);
  }
  return lines;
}
