/** The scrcpy server's command line after the version: `key=value` options as scrcpy 3.3.3's Options.parse reads them. */

export const SCRCPY_SERVER_VERSION = '3.3.3';

export interface ScrcpyOptions {
  /** 31-bit session id; -1 when absent (the socket is then just `scrcpy`). */
  scid: number;
  video: boolean;
  audio: boolean;
  control: boolean;
  videoCodec: string;
  /** 0: the screen's own size. */
  maxSize: number;
  /** 0: no cap. */
  maxFps: number;
  tunnelForward: boolean;
  sendDummyByte: boolean;
  sendDeviceMeta: boolean;
  sendCodecMeta: boolean;
  sendFrameMeta: boolean;
  displayId: number;
}

export interface ParsedOptions {
  options: ScrcpyOptions;
  /** Warnings the server logs (unknown keys), without stopping. */
  warnings: string[];
}

/** A bad value: the real server throws IllegalArgumentException and exits. */
export class ScrcpyOptionError extends Error {}

const DEFAULTS: ScrcpyOptions = {
  scid: -1,
  video: true,
  audio: true,
  control: true,
  videoCodec: 'h264',
  maxSize: 0,
  maxFps: 0,
  tunnelForward: false,
  sendDummyByte: true,
  sendDeviceMeta: true,
  sendCodecMeta: true,
  sendFrameMeta: true,
  displayId: 0,
};

/** Options the demo phone accepts and has nothing to do for (no audio capture, no encoder choice, no power control). */
const ACCEPTED_WITHOUT_EFFECT = new Set([
  'log_level', 'video_bit_rate', 'audio_bit_rate', 'audio_codec', 'audio_source', 'audio_dup', 'audio_codec_options', 'audio_encoder',
  'video_codec_options', 'video_encoder', 'video_source', 'lock_video_orientation', 'capture_orientation', 'crop', 'show_touches',
  'stay_awake', 'power_off_on_close', 'clipboard_autosync', 'downsize_on_error', 'cleanup', 'power_on', 'list_encoders',
  'list_displays', 'list_cameras', 'list_camera_sizes', 'list_apps', 'camera_id', 'camera_size', 'camera_facing', 'camera_ar',
  'camera_fps', 'camera_high_speed', 'new_display', 'vd_destroy_content', 'vd_system_decorations', 'display_ime_policy', 'angle',
  'screen_off_timeout', 'min_size',
]);

type BooleanOption = { [Key in keyof ScrcpyOptions]: ScrcpyOptions[Key] extends boolean ? Key : never }[keyof ScrcpyOptions];

const BOOLEAN_OPTIONS: ReadonlyMap<string, BooleanOption> = new Map([
  ['video', 'video'],
  ['audio', 'audio'],
  ['control', 'control'],
  ['tunnel_forward', 'tunnelForward'],
  ['send_dummy_byte', 'sendDummyByte'],
  ['send_device_meta', 'sendDeviceMeta'],
  ['send_codec_meta', 'sendCodecMeta'],
  ['send_frame_meta', 'sendFrameMeta'],
]);

function parseBoolean(key: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ScrcpyOptionError(`Invalid boolean value for ${key}: "${value}"`);
}

function parseNonNegative(key: string, value: string, radix = 10): number {
  const parsed = Number.parseInt(value, radix);
  const digits = radix === 16 ? /^[0-9a-fA-F]{1,8}$/ : /^[0-9]{1,10}$/;
  if (!digits.test(value) || !Number.isFinite(parsed) || parsed < 0 || parsed > 0x7fffffff) {
    throw new ScrcpyOptionError(`Invalid value for ${key}: "${value}"`);
  }
  return parsed;
}

export function parseScrcpyOptions(args: readonly string[]): ParsedOptions {
  const options = { ...DEFAULTS };
  const warnings: string[] = [];
  for (const arg of args) {
    const equals = arg.indexOf('=');
    if (equals <= 0) throw new ScrcpyOptionError(`Invalid key=value pair: "${arg}"`);
    const key = arg.slice(0, equals);
    const value = arg.slice(equals + 1);
    const flag = BOOLEAN_OPTIONS.get(key);
    if (flag) {
      options[flag] = parseBoolean(key, value);
      continue;
    }
    switch (key) {
      case 'scid':
        options.scid = parseNonNegative(key, value, 16);
        break;
      case 'video_codec':
        options.videoCodec = value;
        break;
      case 'max_size':
        options.maxSize = parseNonNegative(key, value) & ~7;
        break;
      case 'max_fps':
        options.maxFps = Number.parseFloat(value);
        if (!(options.maxFps >= 0)) throw new ScrcpyOptionError(`Invalid value for max_fps: "${value}"`);
        break;
      case 'raw_stream':
        if (parseBoolean(key, value)) {
          options.sendDummyByte = false;
          options.sendDeviceMeta = false;
          options.sendCodecMeta = false;
          options.sendFrameMeta = false;
        }
        break;
      case 'display_id':
        options.displayId = parseNonNegative(key, value);
        break;
      default:
        if (!ACCEPTED_WITHOUT_EFFECT.has(key)) warnings.push(`Unknown server option: ${key}`);
    }
  }
  return { options, warnings };
}

/** The abstract socket name the server listens on: `scrcpy_%08x`, or `scrcpy` without a scid. */
export function socketName(scid: number): string {
  return scid === -1 ? 'scrcpy' : `scrcpy_${scid.toString(16).padStart(8, '0')}`;
}

/**
 * The video size for a screen and `max_size`, as scrcpy computes it: the longer side limited to max_size with
 * the aspect ratio kept, then each side rounded to a multiple of 8.
 */
export function videoSize(screenWidth: number, screenHeight: number, maxSize: number): { width: number; height: number } {
  let width = screenWidth;
  let height = screenHeight;
  const longer = Math.max(width, height);
  if (maxSize > 0 && longer > maxSize) {
    if (width >= height) {
      height = Math.floor((height * maxSize) / width);
      width = maxSize;
    } else {
      width = Math.floor((width * maxSize) / height);
      height = maxSize;
    }
  }
  const round8 = (value: number): number => Math.max(8, (value + 4) & ~7);
  return { width: round8(width), height: round8(height) };
}
