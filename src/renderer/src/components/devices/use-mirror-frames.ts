import { useEffect, type RefObject } from 'react';
import type { FrameMeta } from '../../../../shared/contract';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useMirrorStore } from '../../store/mirror-store';
import { VideoPainter } from './video-painter';

const FPS_WINDOW_MS = 2000;
const STORE_UPDATE_MS = 500;

/**
 * Paints the selected phone's frames on the canvas. Screenshots: latest frame wins (while one frame decodes, newer
 * ones replace each other in a single slot and the rest are dropped). Video packets go to a WebCodecs decoder in
 * order. Bytes never reach the store, only what was painted.
 */
export function useMirrorFrames(canvas: RefObject<HTMLCanvasElement | null>, serial: string | null): void {
  const bridge = useBridge();
  useEffect(() => {
    if (!serial) return;
    let decoding = false;
    let waiting: { meta: FrameMeta; bytes: Uint8Array } | null = null;
    let stopped = false;
    const paintedAt: number[] = [];
    let lastStoreUpdate = 0;
    let lastStoredSize = { width: 0, height: 0 };

    const paint = async (meta: FrameMeta, bytes: Uint8Array) => {
      decoding = true;
      try {
        const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: meta.mediaType }));
        const target = canvas.current;
        if (!stopped && target) {
          if (target.width !== bitmap.width || target.height !== bitmap.height) {
            target.width = bitmap.width;
            target.height = bitmap.height;
          }
          target.getContext('2d')?.drawImage(bitmap, 0, 0);
          recordPaint(meta);
        }
        bitmap.close();
      } catch {
        // An undecodable frame is skipped; the next one replaces it.
      } finally {
        decoding = false;
      }
      const next = waiting;
      waiting = null;
      if (next && !stopped) void paint(next.meta, next.bytes);
    };

    const recordPaint = (meta: FrameMeta) => {
      const now = performance.now();
      paintedAt.push(now);
      while (paintedAt.length > 0 && paintedAt[0]! < now - FPS_WINDOW_MS) paintedAt.shift();
      // A turned or resized picture is told at once: the mirror's box and click mapping follow it.
      const resized = meta.width !== lastStoredSize.width || meta.height !== lastStoredSize.height;
      if (!resized && now - lastStoreUpdate < STORE_UPDATE_MS && paintedAt.length > 1) return;
      lastStoreUpdate = now;
      lastStoredSize = { width: meta.width, height: meta.height };
      const span = paintedAt.length > 1 ? (paintedAt.at(-1)! - paintedAt[0]!) / 1000 : 0;
      useMirrorStore.getState().setPainted(
        {
          serial: meta.serial,
          seq: meta.seq,
          width: meta.width,
          height: meta.height,
          deviceWidth: meta.deviceWidth,
          deviceHeight: meta.deviceHeight,
          latencyMs: Math.max(0, Date.now() - meta.capturedAt),
        },
        span > 0 ? (paintedAt.length - 1) / span : 0,
      );
    };

    const video = new VideoPainter({
      canvas: () => canvas.current,
      painted: recordPaint,
      requestKeyFrame: () => void bridge.call('mirror.requestKeyFrame', {}).catch(reportError),
    });

    const off = bridge.onFrame((meta, bytes) => {
      if (meta.serial !== serial) return;
      if (meta.mediaType === 'video/h264') video.push(meta, bytes);
      else if (decoding) waiting = { meta, bytes };
      else void paint(meta, bytes);
    });
    return () => {
      stopped = true;
      off();
      video.close();
      useMirrorStore.getState().reset();
    };
  }, [bridge, canvas, serial]);
}
