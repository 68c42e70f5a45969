import { create } from 'zustand';
import type { MirrorStatus } from '../../../shared/contract';

/** What the page drew, measured where it is painted (main's fps counts frames sent, this counts frames shown). */
export interface PaintedFrame {
  serial: string;
  seq: number;
  width: number;
  height: number;
  /** The phone's screen in device pixels as main measured it (the frame may be downscaled). */
  deviceWidth?: number;
  deviceHeight?: number;
  /** capturedAt -> painted on the canvas, in ms (clocks of main and page are the same machine's). */
  latencyMs: number;
}

export interface MirrorState {
  status: MirrorStatus | null;
  painted: PaintedFrame | null;
  paintedFps: number;
  setStatus(status: MirrorStatus): void;
  setPainted(frame: PaintedFrame, fps: number): void;
  reset(): void;
}

export const useMirrorStore = create<MirrorState>()((set) => ({
  status: null,
  painted: null,
  paintedFps: 0,
  setStatus: (status) => set({ status }),
  setPainted: (painted, paintedFps) => set({ painted, paintedFps }),
  reset: () => set({ painted: null, paintedFps: 0 }),
}));
