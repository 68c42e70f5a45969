import { useEffect, useState, type RefObject } from 'react';
import type { Size } from './device-geometry';

/**
 * The largest size with the phone's aspect ratio that fits the box (in CSS pixels), following the box as the
 * window or the splitter resizes it. Null until both are known.
 */
export function useFitSize(box: RefObject<HTMLElement | null>, aspect: Size | null): Size | null {
  const [available, setAvailable] = useState<Size | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setAvailable({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  if (!available || !aspect || available.width <= 0 || available.height <= 0) return null;
  const scale = Math.min(available.width / aspect.width, available.height / aspect.height);
  return { width: Math.floor(aspect.width * scale), height: Math.floor(aspect.height * scale) };
}
