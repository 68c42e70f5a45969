// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeContext } from '../../src/renderer/src/bridge-context';
import { useMirrorFrames } from '../../src/renderer/src/components/devices/use-mirror-frames';
import { useMirrorStore } from '../../src/renderer/src/store/mirror-store';
import type { FrameMeta } from '../../src/shared/contract';
import { FakeBridge } from './fake-bridge';

/** A decode the test finishes by hand, so frames can arrive while it is still running. */
interface PendingDecode {
  bytes: number;
  finish(): void;
}

let decodes: PendingDecode[];
let drawn: number;

function CanvasUnderTest({ serial }: { serial: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useMirrorFrames(canvas, serial);
  return <canvas ref={canvas} />;
}

const frame = (serial: string, seq: number): [FrameMeta, Uint8Array] => [
  { serial, seq, width: 432, height: 960, mediaType: 'image/jpeg', capturedAt: Date.now(), captureMs: 40, deviceWidth: 1080, deviceHeight: 2400 },
  // The frame's size tells which one a decode was given.
  new Uint8Array(seq + 1),
];

beforeEach(() => {
  decodes = [];
  drawn = 0;
  useMirrorStore.setState(useMirrorStore.getInitialState(), true);
  vi.stubGlobal(
    'createImageBitmap',
    (blob: Blob) =>
      new Promise((resolve) => decodes.push({ bytes: blob.size, finish: () => resolve({ width: 432, height: 960, close() {} }) })),
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ drawImage: () => drawn++ } as never);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('mirror frames', () => {
  it('Scenario: The mirror paints the newest frame and drops the ones that arrive while one decodes', async () => {
    const bridge = new FakeBridge({});
    render(
      <BridgeContext.Provider value={bridge}>
        <CanvasUnderTest serial="phone-a" />
      </BridgeContext.Provider>,
    );
    bridge.emitFrame(...frame('phone-a', 0));
    expect(decodes.map((d) => d.bytes)).toEqual([1]);
    // While frame 0 decodes: three newer frames for this phone, and one for another phone.
    bridge.emitFrame(...frame('phone-a', 1));
    bridge.emitFrame(...frame('phone-a', 2));
    bridge.emitFrame(...frame('phone-b', 7));
    bridge.emitFrame(...frame('phone-a', 3));
    expect(decodes).toHaveLength(1);

    await act(async () => decodes[0]!.finish());
    expect(drawn).toBe(1);
    expect(decodes.map((d) => d.bytes)).toEqual([1, 4]);
    await act(async () => decodes[1]!.finish());
    expect(drawn).toBe(2);
    expect(decodes).toHaveLength(2);

    // Only what was painted is kept, never the bytes.
    const painted = useMirrorStore.getState().painted;
    expect(painted).toMatchObject({ serial: 'phone-a', width: 432, height: 960, deviceWidth: 1080, deviceHeight: 2400 });
    expect(Object.values(useMirrorStore.getState()).some((value) => value instanceof Uint8Array)).toBe(false);
    expect(Object.values(painted!).every((value) => typeof value === 'number' || typeof value === 'string')).toBe(true);
  });
});
