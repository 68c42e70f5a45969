/** Writes an H.264 RBSP bit by bit (most significant bit first), with the Exp-Golomb codes of clause 9.1. */
export class BitWriter {
  private bytes: Uint8Array;
  private length = 0;
  /** Bits collected for the byte being filled, and how many. */
  private pending = 0;
  private pendingBits = 0;

  constructor(capacity = 64) {
    this.bytes = new Uint8Array(capacity);
  }

  get byteAligned(): boolean {
    return this.pendingBits === 0;
  }

  /** u(n): `value` in `bits` bits (at most 24 at a time, enough for every syntax element we write). */
  bits(value: number, bits: number): this {
    for (let bit = bits - 1; bit >= 0; bit--) this.bit((value >>> bit) & 1);
    return this;
  }

  flag(value: boolean): this {
    return this.bit(value ? 1 : 0);
  }

  /** ue(v): unsigned Exp-Golomb. */
  ue(value: number): this {
    const codeNum = value + 1;
    const width = 32 - Math.clz32(codeNum);
    this.bits(0, width - 1);
    return this.bits(codeNum, width);
  }

  /** se(v): signed Exp-Golomb (positive k maps to 2k-1, negative to -2k). */
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** Zero bits up to the next byte boundary (pcm_alignment_zero_bit, cabac_alignment_one_bit aside). */
  alignWithZeros(): this {
    while (this.pendingBits !== 0) this.bit(0);
    return this;
  }

  /** Whole bytes at a byte boundary (PCM samples); much faster than bit by bit. */
  alignedBytes(data: Uint8Array): this {
    if (this.pendingBits !== 0) throw new Error('alignedBytes needs a byte boundary');
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
    return this;
  }

  /** rbsp_trailing_bits(): the stop bit, then zeros to the byte boundary. */
  trailingBits(): this {
    return this.bit(1).alignWithZeros();
  }

  /** The bytes written so far; the writer must be byte aligned. */
  toBytes(): Uint8Array {
    if (this.pendingBits !== 0) throw new Error('the RBSP does not end on a byte boundary');
    return this.bytes.subarray(0, this.length);
  }

  private bit(value: number): this {
    this.pending = (this.pending << 1) | value;
    if (++this.pendingBits === 8) {
      this.reserve(1);
      this.bytes[this.length++] = this.pending;
      this.pending = 0;
      this.pendingBits = 0;
    }
    return this;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

const START_CODE = [0, 0, 0, 1];

/**
 * One NAL unit in Annex B form: start code, header byte, then the RBSP with emulation prevention (an 0x03 after
 * two zero bytes whenever the next byte is 0x00-0x03, clause 7.4.1). An RBSP ends with its stop bit, never a zero byte.
 */
export function annexBNalUnit(nalRefIdc: number, nalUnitType: number, rbsp: Uint8Array): Uint8Array {
  const out = new Uint8Array(START_CODE.length + 1 + rbsp.length + Math.ceil(rbsp.length / 2) + 1);
  out.set(START_CODE);
  let length = START_CODE.length;
  out[length++] = (nalRefIdc << 5) | nalUnitType;
  // Only bytes right after two zeros need a look: jump from zero byte to zero byte, copying the runs between.
  let copied = 0;
  let zero = rbsp.indexOf(0);
  while (zero !== -1 && zero + 2 < rbsp.length) {
    if (rbsp[zero + 1] !== 0) {
      zero = rbsp.indexOf(0, zero + 1);
      continue;
    }
    if (rbsp[zero + 2]! > 3) {
      zero = rbsp.indexOf(0, zero + 2);
      continue;
    }
    out.set(rbsp.subarray(copied, zero + 2), length);
    length += zero + 2 - copied;
    out[length++] = 3;
    copied = zero + 2;
    // The byte after the inserted 0x03 starts a new count (it may itself be a zero).
    zero = rbsp.indexOf(0, copied);
  }
  out.set(rbsp.subarray(copied), length);
  length += rbsp.length - copied;
  return out.subarray(0, length);
}
