/** East Asian wide characters (CJK, Hangul, full-width forms) take two columns of a terminal. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/** How many terminal columns a text takes. */
export const terminalColumns = (text: string): number => [...text].reduce((width, char) => width + (WIDE.test(char) ? 2 : 1), 0);

/** `text` padded with spaces to `width` terminal columns. */
export const padColumns = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - terminalColumns(text)));

/**
 * A table as terminal lines: the header, then (with `rule`) a line of dashes under each column, then the rows, each
 * cell padded to its column's widest so the columns line up in any language.
 */
export function tableLines(header: readonly string[], rows: readonly (readonly string[])[], options: { rule?: boolean } = {}): string[] {
  const widths = header.map((title, column) => Math.max(terminalColumns(title), ...rows.map((row) => terminalColumns(row[column]!))));
  const line = (cells: readonly string[]) => cells.map((cell, column) => padColumns(cell, widths[column]!)).join('  ').trimEnd();
  return [line(header), ...(options.rule ? [line(widths.map((width) => '-'.repeat(width)))] : []), ...rows.map(line)];
}
