/** scrcpy 3.3.3 control messages (client to device), big-endian, as ControlMessageReader reads them. */

export type ControlMessage =
  | { type: 'keycode'; action: number; keycode: number; repeat: number; metaState: number }
  | { type: 'text'; text: string }
  | { type: 'touch'; action: number; pointerId: bigint; x: number; y: number; screenWidth: number; screenHeight: number; pressure: number }
  | { type: 'scroll'; x: number; y: number; screenWidth: number; screenHeight: number; hScroll: number; vScroll: number }
  | { type: 'back-or-screen-on'; action: number }
  | { type: 'expand-notification-panel' }
  | { type: 'expand-settings-panel' }
  | { type: 'collapse-panels' }
  | { type: 'get-clipboard'; copyKey: number }
  | { type: 'set-clipboard'; sequence: bigint; paste: boolean; text: string }
  | { type: 'set-display-power'; on: boolean }
  | { type: 'rotate-device' }
  | { type: 'uhid'; kind: 'create' | 'input' | 'destroy'; id: number }
  | { type: 'open-hard-keyboard-settings' }
  | { type: 'start-app'; name: string }
  | { type: 'reset-video' };

/** A type byte the server does not know: the stream is out of step and the controller stops. */
export class ControlProtocolError extends Error {}

/**
 * Reads big-endian fields from a buffer; `undefined` means the message is not complete yet, and once one read
 * came up short every later read does too (so checking the last field is enough).
 */
class FieldReader {
  offset = 0;
  private short = false;
  constructor(private readonly data: Buffer) {}

  private take(size: number): number | undefined {
    if (this.short || this.offset + size > this.data.length) {
      this.short = true;
      return undefined;
    }
    const at = this.offset;
    this.offset += size;
    return at;
  }
  u8(): number | undefined {
    const at = this.take(1);
    return at === undefined ? undefined : this.data.readUInt8(at);
  }
  u16(): number | undefined {
    const at = this.take(2);
    return at === undefined ? undefined : this.data.readUInt16BE(at);
  }
  i16(): number | undefined {
    const at = this.take(2);
    return at === undefined ? undefined : this.data.readInt16BE(at);
  }
  i32(): number | undefined {
    const at = this.take(4);
    return at === undefined ? undefined : this.data.readInt32BE(at);
  }
  u32(): number | undefined {
    const at = this.take(4);
    return at === undefined ? undefined : this.data.readUInt32BE(at);
  }
  u64(): bigint | undefined {
    const at = this.take(8);
    return at === undefined ? undefined : this.data.readBigUInt64BE(at);
  }
  bytes(size: number | undefined): Buffer | undefined {
    if (size === undefined) return undefined;
    const at = this.take(size);
    return at === undefined ? undefined : this.data.subarray(at, at + size);
  }
}

/** u16 fixed point in [0, 1] (pressure), i16 fixed point in [-1, 1] (scroll, scaled by 16 as the server does). */
const unitFromU16 = (value: number): number => (value === 0xffff ? 1 : value / 0x10000);
const scrollFromI16 = (value: number): number => (value === 0x7fff ? 1 : value / 0x8000) * 16;

type Parser = (reader: FieldReader) => ControlMessage | undefined;

const PARSERS: Record<number, Parser> = {
  0: (r) => {
    const [action, keycode, repeat, metaState] = [r.u8(), r.i32(), r.i32(), r.i32()];
    if (metaState === undefined) return undefined;
    return { type: 'keycode', action: action!, keycode: keycode!, repeat: repeat!, metaState };
  },
  1: (r) => {
    const text = r.bytes(r.u32());
    return text && { type: 'text', text: text.toString('utf8') };
  },
  2: (r) => {
    const [action, pointerId, x, y, screenWidth, screenHeight, pressure, , buttons] = [r.u8(), r.u64(), r.i32(), r.i32(), r.u16(), r.u16(), r.u16(), r.i32(), r.i32()];
    if (buttons === undefined) return undefined;
    return { type: 'touch', action: action!, pointerId: pointerId!, x: x!, y: y!, screenWidth: screenWidth!, screenHeight: screenHeight!, pressure: unitFromU16(pressure!) };
  },
  3: (r) => {
    const [x, y, screenWidth, screenHeight, hScroll, vScroll, buttons] = [r.i32(), r.i32(), r.u16(), r.u16(), r.i16(), r.i16(), r.i32()];
    if (buttons === undefined) return undefined;
    return { type: 'scroll', x: x!, y: y!, screenWidth: screenWidth!, screenHeight: screenHeight!, hScroll: scrollFromI16(hScroll!), vScroll: scrollFromI16(vScroll!) };
  },
  4: (r) => {
    const action = r.u8();
    return action === undefined ? undefined : { type: 'back-or-screen-on', action };
  },
  5: () => ({ type: 'expand-notification-panel' }),
  6: () => ({ type: 'expand-settings-panel' }),
  7: () => ({ type: 'collapse-panels' }),
  8: (r) => {
    const copyKey = r.u8();
    return copyKey === undefined ? undefined : { type: 'get-clipboard', copyKey };
  },
  9: (r) => {
    const [sequence, paste] = [r.u64(), r.u8()];
    const text = r.bytes(r.u32());
    return text && { type: 'set-clipboard', sequence: sequence!, paste: paste !== 0, text: text.toString('utf8') };
  },
  10: (r) => {
    const on = r.u8();
    return on === undefined ? undefined : { type: 'set-display-power', on: on !== 0 };
  },
  11: () => ({ type: 'rotate-device' }),
  12: (r) => {
    const [id] = [r.u16(), r.u16(), r.u16()];
    const name = r.bytes(r.u8());
    const descriptor = name && r.bytes(r.u16());
    return descriptor && { type: 'uhid', kind: 'create', id: id! };
  },
  13: (r) => {
    const id = r.u16();
    const data = r.bytes(r.u16());
    return data && { type: 'uhid', kind: 'input', id: id! };
  },
  14: (r) => {
    const id = r.u16();
    return id === undefined ? undefined : { type: 'uhid', kind: 'destroy', id };
  },
  15: () => ({ type: 'open-hard-keyboard-settings' }),
  16: (r) => {
    const name = r.bytes(r.u8());
    return name && { type: 'start-app', name: name.toString('utf8') };
  },
  17: () => ({ type: 'reset-video' }),
};

/**
 * Splits the control socket's bytes into messages, whatever the TCP reads' boundaries: `push` returns every
 * message completed so far and keeps the rest. Throws ControlProtocolError on an unknown type.
 */
export class ControlMessageParser {
  private pending: Buffer = Buffer.alloc(0);

  push(data: Buffer): ControlMessage[] {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    const messages: ControlMessage[] = [];
    while (this.pending.length > 0) {
      const type = this.pending[0]!;
      const parse = PARSERS[type];
      if (!parse) throw new ControlProtocolError(`Unknown event type: ${type}`);
      const reader = new FieldReader(this.pending);
      reader.offset = 1;
      const message = parse(reader);
      if (!message) break;
      messages.push(message);
      this.pending = this.pending.subarray(reader.offset);
    }
    return messages;
  }
}

/** Device messages (device to client) on the control socket. */
export function clipboardDeviceMessage(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(5);
  header.writeUInt8(0, 0);
  header.writeUInt32BE(body.length, 1);
  return Buffer.concat([header, body]);
}

export function ackClipboardDeviceMessage(sequence: bigint): Buffer {
  const message = Buffer.alloc(9);
  message.writeUInt8(1, 0);
  message.writeBigUInt64BE(sequence, 1);
  return message;
}
