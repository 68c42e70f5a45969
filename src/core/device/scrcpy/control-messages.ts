/**
 * Messages the host writes on scrcpy-server 3.x's control socket (big-endian, one type byte first). Positions
 * are in the video's pixels, with the video size the client believes in: the server drops a touch whose
 * size differs from its current one (a rotation the client has not seen yet).
 */

export const CONTROL_TYPES = { injectKeycode: 0, injectText: 1, injectTouch: 2, backOrScreenOn: 4, resetVideo: 17 } as const;
export const KEY_ACTIONS = { down: 0, up: 1 } as const;
export const TOUCH_ACTIONS = { down: 0, up: 1, move: 2 } as const;

/** A finger's pointer id (scrcpy reserves -1 for a mouse, which needs buttons, and -2 for a generic finger). */
export const POINTER_ID_FINGER = 0n;
/** scrcpy-server truncates injected text at this many UTF-8 bytes. */
export const MAX_TEXT_BYTES = 300;

export interface VideoPoint {
  x: number;
  y: number;
  /** The video size the point refers to. */
  width: number;
  height: number;
}

export function keycodeMessage(action: keyof typeof KEY_ACTIONS, keycode: number, repeat = 0, metaState = 0): Uint8Array {
  const out = new Uint8Array(14);
  const view = new DataView(out.buffer);
  view.setUint8(0, CONTROL_TYPES.injectKeycode);
  view.setUint8(1, KEY_ACTIONS[action]);
  view.setUint32(2, keycode);
  view.setUint32(6, repeat);
  view.setUint32(10, metaState);
  return out;
}

/** Text messages of at most MAX_TEXT_BYTES each, split between characters. */
export function textMessages(text: string): Uint8Array[] {
  const encoder = new TextEncoder();
  const messages: Uint8Array[] = [];
  let piece = '';
  const flush = () => {
    if (!piece) return;
    const bytes = encoder.encode(piece);
    const out = new Uint8Array(5 + bytes.length);
    new DataView(out.buffer).setUint8(0, CONTROL_TYPES.injectText);
    new DataView(out.buffer).setUint32(1, bytes.length);
    out.set(bytes, 5);
    messages.push(out);
    piece = '';
  };
  for (const char of text) {
    if (encoder.encode(piece + char).length > MAX_TEXT_BYTES) flush();
    piece += char;
  }
  flush();
  return messages;
}

export function touchMessage(action: keyof typeof TOUCH_ACTIONS, point: VideoPoint, pointerId = POINTER_ID_FINGER): Uint8Array {
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  view.setUint8(0, CONTROL_TYPES.injectTouch);
  view.setUint8(1, TOUCH_ACTIONS[action]);
  view.setBigUint64(2, pointerId);
  view.setUint32(10, Math.max(0, Math.round(point.x)));
  view.setUint32(14, Math.max(0, Math.round(point.y)));
  view.setUint16(18, point.width);
  view.setUint16(20, point.height);
  // Pressure as a u16 fixed-point fraction: full while down, none on release.
  view.setUint16(22, action === 'up' ? 0 : 0xffff);
  view.setUint32(24, 0); // action button: none (a finger)
  view.setUint32(28, 0); // buttons: none
  return out;
}

export function backOrScreenOnMessage(action: keyof typeof KEY_ACTIONS): Uint8Array {
  return Uint8Array.of(CONTROL_TYPES.backOrScreenOn, KEY_ACTIONS[action]);
}

/** Restarts capture and encoding: the server sends a new configuration and a key frame at once (3.0 and later). */
export function resetVideoMessage(): Uint8Array {
  return Uint8Array.of(CONTROL_TYPES.resetVideo);
}
