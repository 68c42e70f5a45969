import { annexBNalUnit, BitWriter } from './bit-writer';
import { levelFor } from './levels';
import { blankI420, convertMacroblockRow, MB_SIZE, rgbaToI420, type I420Picture } from './yuv';

/**
 * A small H.264 encoder for screens: Constrained Baseline, CAVLC. A key frame is an IDR picture of I_PCM
 * macroblocks (raw samples: lossless, no transform, prediction or residual coding). A delta frame is a P picture
 * that skips every macroblock equal to the previous picture's (P_Skip copies it: with every motion vector zero,
 * the predicted one is zero too) and sends the others as I_PCM, so an unchanged screen costs a few bytes.
 */

const NAL_SLICE_NON_IDR = 1;
const NAL_SLICE_IDR = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;
const NAL_REF_IDC_HIGHEST = 3;
/** Delta frames are reference pictures too: pic_order_cnt_type 2 forbids two non-reference frames in a row. */
const NAL_REF_IDC_DELTA = 2;
const PROFILE_BASELINE = 66;
/** constraint_set0/1/2: the stream also conforms to Main and Extended (no FMO, ASO or redundant slices). */
const CONSTRAINT_FLAGS = 0b1110_0000;
const SLICE_TYPE_P_ALL = 5;
const SLICE_TYPE_I_ALL = 7;
const MB_TYPE_I_PCM = 25;
/** In a P slice the intra macroblock types follow the five inter ones. */
const MB_TYPE_P_SLICE_I_PCM = 5 + MB_TYPE_I_PCM;
const LOG2_MAX_FRAME_NUM = 4;
const MB_SAMPLES = 384;
/** VUI colour description: SMPTE 170M (BT.601) primaries, transfer and matrix, as `rgbaToI420` converts. */
const COLOUR_BT601 = 6;
const VIDEO_FORMAT_UNSPECIFIED = 5;
/** log2_max_mv_length_*: the largest value the syntax allows. */
const MAX_MV_LENGTH_LOG2 = 15;

export interface StreamFormat {
  /** The visible size (even numbers). */
  width: number;
  height: number;
  /** The frame rate the level must allow. */
  framesPerSecond: number;
}

export class H264ScreenEncoder {
  private readonly widthInMbs: number;
  private readonly heightInMbs: number;
  readonly level: number;
  private idrPicId = 0;
  private frameNum = 0;
  /** The last picture sent: what P_Skip macroblocks copy. Delta frames update it row by row. */
  private reference: I420Picture | undefined;
  /** The RGBA the reference was made from: a macroblock row whose pixels are equal is skipped without converting. */
  private referenceRgba: Uint8Array | undefined;
  /** Where a changed macroblock row is converted before it is compared with the reference. */
  private scratch: I420Picture | undefined;

  constructor(readonly format: StreamFormat) {
    if (format.width <= 0 || format.height <= 0 || format.width % 2 !== 0 || format.height % 2 !== 0) {
      throw new Error(`the video size must be positive and even, got ${format.width}x${format.height}`);
    }
    this.widthInMbs = Math.ceil(format.width / MB_SIZE);
    this.heightInMbs = Math.ceil(format.height / MB_SIZE);
    this.level = levelFor(this.widthInMbs, this.heightInMbs, format.framesPerSecond);
  }

  /** `avc1.PPCCLL`: profile, constraint flags and level as WebCodecs and MSE expect them. */
  get codecString(): string {
    const hex = (value: number): string => value.toString(16).toUpperCase().padStart(2, '0');
    return `avc1.${hex(PROFILE_BASELINE)}${hex(CONSTRAINT_FLAGS)}${hex(this.level)}`;
  }

  /** SPS then PPS: the stream's configuration (scrcpy's config packet). */
  parameterSets(): Uint8Array {
    const sps = annexBNalUnit(NAL_REF_IDC_HIGHEST, NAL_SPS, this.spsRbsp());
    const pps = annexBNalUnit(NAL_REF_IDC_HIGHEST, NAL_PPS, this.ppsRbsp());
    return concat([sps, pps]);
  }

  /** An IDR picture of `rgba` (format.width x format.height, 4 bytes a pixel): decodable on its own. */
  encodeKeyFrame(rgba: Uint8Array): Uint8Array {
    const picture = this.toPicture(rgba);
    const writer = new BitWriter(this.widthInMbs * this.heightInMbs * (2 + MB_SAMPLES) + 64);
    this.idrSliceHeader(writer);
    const samples = new Uint8Array(MB_SAMPLES);
    for (let mbY = 0; mbY < this.heightInMbs; mbY++) {
      for (let mbX = 0; mbX < this.widthInMbs; mbX++) {
        macroblockSamples(picture, mbX, mbY, samples);
        writer.ue(MB_TYPE_I_PCM).alignWithZeros().alignedBytes(samples);
      }
    }
    // Consecutive IDR pictures must differ in idr_pic_id (7.4.3).
    this.idrPicId = (this.idrPicId + 1) % 2;
    this.frameNum = 0;
    this.reference = picture;
    this.referenceRgba = new Uint8Array(rgba.subarray(0, this.format.width * this.format.height * 4));
    return annexBNalUnit(NAL_REF_IDC_HIGHEST, NAL_SLICE_IDR, writer.trailingBits().toBytes());
  }

  /**
   * A P picture after the last one: `rgba`'s changed macroblocks as I_PCM, the rest skipped. Without `rgba`, the
   * screen is unchanged and every macroblock is skipped. Needs a key frame first.
   */
  encodeDeltaFrame(rgba?: Uint8Array): Uint8Array {
    const reference = this.reference;
    if (!reference) throw new Error('a delta frame needs a key frame before it');
    const changedRows = rgba ? this.changedMacroblockRows(rgba) : new Set<number>();
    this.frameNum = (this.frameNum + 1) % (1 << LOG2_MAX_FRAME_NUM);
    const writer = new BitWriter(changedRows.size * this.widthInMbs * (2 + MB_SAMPLES) + 64);
    this.deltaSliceHeader(writer);
    const scratch = (this.scratch ??= blankI420(this.format.width, this.format.height));
    const samples = new Uint8Array(MB_SAMPLES);
    const previous = new Uint8Array(MB_SAMPLES);
    let skipped = 0;
    for (let mbY = 0; mbY < this.heightInMbs; mbY++) {
      if (!rgba || !changedRows.has(mbY)) {
        skipped += this.widthInMbs;
        continue;
      }
      convertMacroblockRow(rgba, scratch, mbY);
      for (let mbX = 0; mbX < this.widthInMbs; mbX++) {
        macroblockSamples(scratch, mbX, mbY, samples);
        macroblockSamples(reference, mbX, mbY, previous);
        if (equalSamples(samples, previous)) {
          skipped++;
          continue;
        }
        writer.ue(skipped).ue(MB_TYPE_P_SLICE_I_PCM).alignWithZeros().alignedBytes(samples);
        skipped = 0;
      }
      copyMacroblockRow(scratch, reference, mbY);
    }
    if (skipped > 0) writer.ue(skipped);
    return annexBNalUnit(NAL_REF_IDC_DELTA, NAL_SLICE_NON_IDR, writer.trailingBits().toBytes());
  }

  /** Macroblock rows whose RGBA differs from the reference's (compared natively), which take the new pixels. */
  private changedMacroblockRows(rgba: Uint8Array): Set<number> {
    const { width, height } = this.format;
    const known = this.referenceRgba!;
    const changed = new Set<number>();
    const rowBytes = width * 4;
    for (let mbY = 0; mbY < this.heightInMbs; mbY++) {
      const start = mbY * MB_SIZE * rowBytes;
      const end = Math.min(height, (mbY + 1) * MB_SIZE) * rowBytes;
      const now = Buffer.from(rgba.buffer, rgba.byteOffset + start, end - start);
      if (now.equals(Buffer.from(known.buffer, known.byteOffset + start, end - start))) continue;
      changed.add(mbY);
      known.set(now, start);
    }
    return changed;
  }

  private toPicture(rgba: Uint8Array): I420Picture {
    return rgbaToI420(rgba, this.format.width, this.format.height);
  }

  private spsRbsp(): Uint8Array {
    const { width, height } = this.format;
    const cropRight = (this.widthInMbs * MB_SIZE - width) / 2;
    const cropBottom = (this.heightInMbs * MB_SIZE - height) / 2;
    const writer = new BitWriter()
      .bits(PROFILE_BASELINE, 8)
      .bits(CONSTRAINT_FLAGS, 8)
      .bits(this.level, 8)
      .ue(0) // seq_parameter_set_id
      .ue(LOG2_MAX_FRAME_NUM - 4)
      .ue(2) // pic_order_cnt_type: output order is decoding order
      .ue(1) // max_num_ref_frames
      .flag(false) // gaps_in_frame_num_value_allowed_flag
      .ue(this.widthInMbs - 1)
      .ue(this.heightInMbs - 1)
      .flag(true) // frame_mbs_only_flag
      .flag(true) // direct_8x8_inference_flag
      .flag(cropRight > 0 || cropBottom > 0);
    if (cropRight > 0 || cropBottom > 0) writer.ue(0).ue(cropRight).ue(0).ue(cropBottom);
    writer.flag(true); // vui_parameters_present_flag
    this.vui(writer);
    return writer.trailingBits().toBytes();
  }

  /** Colour description, and no frame reordering so decoders output each picture at once. */
  private vui(writer: BitWriter): void {
    writer
      .flag(false) // aspect_ratio_info_present_flag
      .flag(false) // overscan_info_present_flag
      .flag(true) // video_signal_type_present_flag
      .bits(VIDEO_FORMAT_UNSPECIFIED, 3)
      .flag(false) // video_full_range_flag
      .flag(true) // colour_description_present_flag
      .bits(COLOUR_BT601, 8)
      .bits(COLOUR_BT601, 8)
      .bits(COLOUR_BT601, 8)
      .flag(false) // chroma_loc_info_present_flag
      .flag(false) // timing_info_present_flag
      .flag(false) // nal_hrd_parameters_present_flag
      .flag(false) // vcl_hrd_parameters_present_flag
      .flag(false) // pic_struct_present_flag
      .flag(true) // bitstream_restriction_flag
      .flag(true) // motion_vectors_over_pic_boundaries_flag
      .ue(0) // max_bytes_per_pic_denom
      .ue(0) // max_bits_per_mb_denom
      .ue(MAX_MV_LENGTH_LOG2)
      .ue(MAX_MV_LENGTH_LOG2)
      .ue(0) // max_num_reorder_frames
      .ue(1); // max_dec_frame_buffering
  }

  private ppsRbsp(): Uint8Array {
    return new BitWriter()
      .ue(0) // pic_parameter_set_id
      .ue(0) // seq_parameter_set_id
      .flag(false) // entropy_coding_mode_flag: CAVLC
      .flag(false) // bottom_field_pic_order_in_frame_present_flag
      .ue(0) // num_slice_groups_minus1
      .ue(0) // num_ref_idx_l0_default_active_minus1
      .ue(0) // num_ref_idx_l1_default_active_minus1
      .flag(false) // weighted_pred_flag
      .bits(0, 2) // weighted_bipred_idc
      .se(0) // pic_init_qp_minus26
      .se(0) // pic_init_qs_minus26
      .se(0) // chroma_qp_index_offset
      .flag(true) // deblocking_filter_control_present_flag
      .flag(false) // constrained_intra_pred_flag
      .flag(false) // redundant_pic_cnt_present_flag
      .trailingBits()
      .toBytes();
  }

  private idrSliceHeader(writer: BitWriter): void {
    writer
      .ue(0) // first_mb_in_slice
      .ue(SLICE_TYPE_I_ALL)
      .ue(0) // pic_parameter_set_id
      .bits(0, LOG2_MAX_FRAME_NUM) // frame_num: 0 in an IDR picture
      .ue(this.idrPicId)
      .flag(false) // no_output_of_prior_pics_flag
      .flag(false); // long_term_reference_flag
    sliceHeaderTail(writer);
  }

  private deltaSliceHeader(writer: BitWriter): void {
    writer
      .ue(0) // first_mb_in_slice
      .ue(SLICE_TYPE_P_ALL)
      .ue(0) // pic_parameter_set_id
      .bits(this.frameNum, LOG2_MAX_FRAME_NUM)
      .flag(false) // num_ref_idx_active_override_flag: the one reference picture
      .flag(false) // ref_pic_list_modification_flag_l0
      .flag(false); // adaptive_ref_pic_marking_mode_flag: sliding window
    sliceHeaderTail(writer);
  }
}

function sliceHeaderTail(writer: BitWriter): void {
  writer
    .se(0) // slice_qp_delta
    .ue(1); // disable_deblocking_filter_idc: off (lossless samples must stay as they are)
}

/** Copies macroblock row `mbY` of every plane from `from` to `to` (pictures of one size). */
function copyMacroblockRow(from: I420Picture, to: I420Picture, mbY: number): void {
  const lumaRow = from.widthInMbs * MB_SIZE * MB_SIZE;
  to.y.set(from.y.subarray(mbY * lumaRow, (mbY + 1) * lumaRow), mbY * lumaRow);
  const chromaRow = lumaRow / 4;
  to.u.set(from.u.subarray(mbY * chromaRow, (mbY + 1) * chromaRow), mbY * chromaRow);
  to.v.set(from.v.subarray(mbY * chromaRow, (mbY + 1) * chromaRow), mbY * chromaRow);
}

function equalSamples(a: Uint8Array, b: Uint8Array): boolean {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** The 384 samples of one I_PCM macroblock: 16x16 luma, then 8x8 Cb, then 8x8 Cr, each row by row. */
function macroblockSamples(picture: I420Picture, mbX: number, mbY: number, out: Uint8Array): void {
  // Plain loops: this runs for every macroblock of every frame, and subarray() would allocate 24 views each time.
  const lumaStride = picture.widthInMbs * MB_SIZE;
  const chromaStride = lumaStride / 2;
  let offset = 0;
  for (let row = 0; row < 16; row++) {
    const start = (mbY * 16 + row) * lumaStride + mbX * 16;
    for (let column = 0; column < 16; column++) out[offset++] = picture.y[start + column]!;
  }
  for (const plane of [picture.u, picture.v]) {
    for (let row = 0; row < 8; row++) {
      const start = (mbY * 8 + row) * chromaStride + mbX * 8;
      for (let column = 0; column < 8; column++) out[offset++] = plane[start + column]!;
    }
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
