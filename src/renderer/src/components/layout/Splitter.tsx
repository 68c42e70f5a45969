import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useWords } from '../../i18n/use-words';
import { PANEL_WIDTH } from './use-panel-width';

const STEP_PX = 40;

interface Props {
  width: number;
  onResize(width: number): void;
  /** Back to the default size, which follows the window. */
  onReset(): void;
}

/**
 * The bar between the phone and the timeline: drag it (or focus it and use the arrow keys, Home and End) to make
 * the phone larger or smaller; a double-click goes back to the default size.
 */
export function Splitter({ width, onResize, onReset }: Props) {
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  const { t } = useWords();
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) onResize(drag.current.startWidth + event.clientX - drag.current.startX);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = { ArrowLeft: width - STEP_PX, ArrowRight: width + STEP_PX, Home: PANEL_WIDTH.min, End: PANEL_WIDTH.max }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onResize(next);
  };
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('app:mirror.splitterLabel')}
      aria-valuemin={PANEL_WIDTH.min}
      aria-valuemax={PANEL_WIDTH.max}
      aria-valuenow={width}
      tabIndex={0}
      title={t('app:mirror.splitterTitle')}
      data-testid="splitter"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onDoubleClick={onReset}
      onKeyDown={onKeyDown}
    />
  );
}
