/** Android key codes the phone handles by name (KeyEvent.KEYCODE_*). */
export const KEY = {
  HOME: 3,
  BACK: 4,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  POWER: 26,
  APP_SWITCH: 187,
  SLEEP: 223,
  WAKEUP: 224,
} as const;
export const MAX_KEY_CODE = 316;

/** KEYCODE_0..9 (7..16) and KEYCODE_A..Z (29..54) type their character. */
export function charForKeyCode(code: number): string | undefined {
  if (code >= 7 && code <= 16) return String(code - 7);
  if (code >= 29 && code <= 54) return String.fromCharCode(97 + code - 29);
  if (code === 55) return ',';
  if (code === 56) return '.';
  return undefined;
}
