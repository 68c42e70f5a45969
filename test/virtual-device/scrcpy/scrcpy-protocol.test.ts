import { describe, expect, it } from 'vitest';
import { ackClipboardDeviceMessage, clipboardDeviceMessage, ControlMessageParser, ControlProtocolError } from '../../../packages/demo-phone/src/phone/scrcpy/control-messages';
import { parseScrcpyOptions, ScrcpyOptionError, socketName, videoSize } from '../../../packages/demo-phone/src/phone/scrcpy/options';
import { deviceMeta } from '../../../packages/demo-phone/src/phone/scrcpy/server';
import { codecMeta, frameHeader } from '../../../packages/demo-phone/src/phone/scrcpy/video-stream';

// Byte sequences as scrcpy 3.3.3's client writes them (big-endian, see its control_msg.c).
const TOUCH_DOWN = Buffer.from('0200' + 'fffffffffffffffe' + '00000064' + '0000012c' + '0168' + '0320' + 'ffff' + '00000001' + '00000001', 'hex');
const KEY_HOME_DOWN = Buffer.from('0000' + '00000003' + '00000000' + '00000000', 'hex');
const TEXT_HELLO = Buffer.concat([Buffer.from('0100000005', 'hex'), Buffer.from('hello')]);
const BACK_DOWN = Buffer.from('0400', 'hex');
const SET_CLIPBOARD = Buffer.concat([Buffer.from('09000000000000002a01', 'hex'), Buffer.from([0, 0, 0, 6]), Buffer.from('李雷', 'utf8')]);

describe('scrcpy protocol bytes', () => {
  it('Scenario: Control messages parse whatever the read boundaries', () => {
    const all = Buffer.concat([TOUCH_DOWN, KEY_HOME_DOWN, TEXT_HELLO, BACK_DOWN, SET_CLIPBOARD, Buffer.from([5, 7, 17])]);
    const expected = [
      { type: 'touch', action: 0, pointerId: 0xfffffffffffffffen, x: 100, y: 300, screenWidth: 360, screenHeight: 800, pressure: 1 },
      { type: 'keycode', action: 0, keycode: 3, repeat: 0, metaState: 0 },
      { type: 'text', text: 'hello' },
      { type: 'back-or-screen-on', action: 0 },
      { type: 'set-clipboard', sequence: 42n, paste: true, text: '李雷' },
      { type: 'expand-notification-panel' },
      { type: 'collapse-panels' },
      { type: 'reset-video' },
    ];
    // Merged: everything in one read.
    expect(new ControlMessageParser().push(all)).toEqual(expected);
    // Split: every possible cut into two reads, and byte by byte.
    for (let cut = 1; cut < all.length; cut++) {
      const parser = new ControlMessageParser();
      expect([...parser.push(all.subarray(0, cut)), ...parser.push(all.subarray(cut))]).toEqual(expected);
    }
    const parser = new ControlMessageParser();
    expect([...all].flatMap((byte) => parser.push(Buffer.from([byte])))).toEqual(expected);
  });

  it('Scenario: An unknown control message type stops the controller', () => {
    expect(() => new ControlMessageParser().push(Buffer.from([99, 0, 0]))).toThrow(ControlProtocolError);
  });

  it("Scenario: Device messages, meta and frame headers have scrcpy's layout", () => {
    expect(clipboardDeviceMessage('hi').toString('hex')).toBe('00000000026869');
    expect(ackClipboardDeviceMessage(42n).toString('hex')).toBe('01000000000000002a');
    expect(codecMeta(360, 800).toString('hex')).toBe('68323634' + '00000168' + '00000320');
    expect(frameHeader(0n, { config: true }, 20).toString('hex')).toBe('8000000000000000' + '00000014');
    expect(frameHeader(16_667n, { keyFrame: true }, 1000).toString('hex')).toBe('400000000000411b' + '000003e8');
    expect(frameHeader(16_667n, {}, 1000).toString('hex')).toBe('000000000000411b' + '000003e8');
    const meta = deviceMeta('AMC_Virtual_Phone');
    expect(meta.length).toBe(64);
    expect(meta.toString('utf8').replace(/\0+$/, '')).toBe('AMC_Virtual_Phone');
    // A long name is cut at a whole character and keeps a terminating NUL.
    const long = deviceMeta('李'.repeat(30));
    expect(long.toString('utf8').replace(/\0+$/, '')).toBe('李'.repeat(21));
    expect(long[63]).toBe(0);
  });

  it("Scenario: Server options follow scrcpy's parsing and the video size its rounding", () => {
    const { options, warnings } = parseScrcpyOptions(['scid=0badc0de', 'video=true', 'audio=false', 'max_size=800', 'tunnel_forward=true', 'log_level=info', 'bogus=1']);
    expect(options).toMatchObject({ scid: 0x0badc0de, video: true, audio: false, control: true, maxSize: 800, tunnelForward: true });
    expect(warnings).toEqual(['Unknown server option: bogus']);
    expect(socketName(options.scid)).toBe('scrcpy_0badc0de');
    expect(socketName(-1)).toBe('scrcpy');
    expect(parseScrcpyOptions(['raw_stream=true']).options).toMatchObject({ sendDummyByte: false, sendDeviceMeta: false, sendCodecMeta: false, sendFrameMeta: false });
    expect(() => parseScrcpyOptions(['video=yes'])).toThrow(ScrcpyOptionError);
    expect(() => parseScrcpyOptions(['max_size=12x'])).toThrow(ScrcpyOptionError);
    expect(() => parseScrcpyOptions(['novalue'])).toThrow(ScrcpyOptionError);
    expect(videoSize(1080, 2400, 0)).toEqual({ width: 1080, height: 2400 });
    expect(videoSize(1080, 2400, 800)).toEqual({ width: 360, height: 800 });
    expect(videoSize(1080, 2400, 1024)).toEqual({ width: 464, height: 1024 });
    expect(videoSize(2400, 1080, 1000)).toEqual({ width: 1000, height: 448 });
    expect(videoSize(1080, 2400, 4000)).toEqual({ width: 1080, height: 2400 });
  });
});
