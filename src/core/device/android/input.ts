import { shellLine } from './shell-line';

/** `input`, the touch and key injector. Points are device pixels; durations milliseconds. */
export const input = {
  tap: (x: number, y: number) => shellLine(['input', 'tap', x, y]),
  swipe: (fromX: number, fromY: number, toX: number, toY: number, durationMs: number) => shellLine(['input', 'swipe', fromX, fromY, toX, toY, durationMs]),
  /** Key events pressed in order by one `input` process (Android 8 and later take several). */
  keyevent: (...codes: readonly number[]) => shellLine(['input', 'keyevent', ...codes]),
  /** Types one word of printable ASCII (`%s` is a space to `input`); see tools/input-text.ts for the splitting. */
  text: (word: string) => shellLine(['input', 'text', word]),
};
