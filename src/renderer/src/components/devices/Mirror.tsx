import { useEffect, useRef, useState, type PointerEvent } from 'react';
import type { DeviceSummary } from '../../../../shared/device';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useMirrorStore } from '../../store/mirror-store';
import { entryFor, isRunning, useTaskStore } from '../../store/task-store';
import { targetPoint } from '../timeline/step-view';
import { deviceSize, toDevicePoint, type Size } from './device-geometry';
import { MirrorStats } from './MirrorStats';
import { useMirrorFrames } from './use-mirror-frames';
import { mirrorLongEdge, VideoPainter } from './video-painter';

/** Movement (CSS pixels) below which a press is a tap rather than a swipe. */
const TAP_SLOP_PX = 8;

/**
 * The selected phone, live. A click taps and a drag swipes while the person has control (no task running on this
 * phone, or it is paused); while the agent acts, its last target is marked instead.
 */
export function Mirror({ device }: { device: DeviceSummary }) {
  const bridge = useBridge();
  const canvas = useRef<HTMLCanvasElement>(null);
  const press = useRef<{ x: number; y: number; at: number } | null>(null);
  const [sending, setSending] = useState(false);
  const painted = useMirrorStore((s) => (s.painted?.serial === device.serial ? s.painted : null));
  const entry = useTaskStore(entryFor(device.serial));
  const agentActive = isRunning(entry?.task);
  const personHasControl = !agentActive || entry?.paused === true;
  useMirrorFrames(canvas, device.serial);

  useEffect(() => {
    if (device.state !== 'device') return;
    bridge
      .call('mirror.start', { serial: device.serial, maxSize: mirrorLongEdge(canvas.current), decodesVideo: VideoPainter.supported() })
      .then((status) => useMirrorStore.getState().setStatus(status))
      .catch(reportError);
  }, [bridge, device.serial, device.state]);

  const size: Size | null = painted ? deviceSize(painted, device.screen) : null;
  const lastStep = agentActive ? entry?.task.steps.findLast((step) => step.planned) : undefined;
  const target = lastStep ? targetPoint(lastStep) : null;

  const pointFrom = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top, box: { width: box.width, height: box.height } };
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!personHasControl || !size || event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const { x, y } = pointFrom(event);
    press.current = { x, y, at: performance.now() };
  };

  const onPointerUp = (event: PointerEvent<HTMLCanvasElement>) => {
    const start = press.current;
    press.current = null;
    if (!start || !size || !personHasControl) return;
    const end = pointFrom(event);
    const from = toDevicePoint(start, end.box, size);
    const to = toDevicePoint(end, end.box, size);
    const moved = Math.hypot(end.x - start.x, end.y - start.y) > TAP_SLOP_PX;
    const durationMs = Math.min(Math.max(Math.round(performance.now() - start.at), 100), 2000);
    setSending(true);
    const sent = moved
      ? bridge.call('devices.swipe', { serial: device.serial, fromX: from.x, fromY: from.y, toX: to.x, toY: to.y, durationMs })
      : bridge.call('devices.tap', { serial: device.serial, ...from });
    sent.catch(reportError).finally(() => setSending(false));
  };

  const pressKey = (key: 'back' | 'home' | 'recents') => {
    bridge.call('devices.pressKey', { serial: device.serial, key }).catch(reportError);
  };

  return (
    <div className="mirror" data-testid="mirror">
      <div className={`mirror-screen${personHasControl ? ' is-interactive' : ''}${sending ? ' is-sending' : ''}`}>
        <canvas
          ref={canvas}
          className="mirror-canvas"
          data-testid="mirror-canvas"
          data-seq={painted?.seq ?? ''}
          aria-label={`Live screen of ${device.model ?? device.serial}${personHasControl ? '. Click to tap, drag to swipe.' : ''}`}
          role="img"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (press.current = null)}
        />
        {!painted && <p className="mirror-waiting muted">Waiting for the phone’s screen…</p>}
        {size && target && (
          <svg className="mirror-overlay" viewBox={`0 0 ${size.width} ${size.height}`} preserveAspectRatio="none" aria-hidden="true">
            <circle className="mirror-target" data-testid="mirror-target" cx={target.x} cy={target.y} r={Math.max(size.width, size.height) / 40} />
          </svg>
        )}
      </div>
      <div className="mirror-keys" role="group" aria-label="Phone keys">
        {(['back', 'home', 'recents'] as const).map((key) => (
          <button key={key} type="button" className="button secondary" disabled={!personHasControl} onClick={() => pressKey(key)}>
            {key[0]!.toUpperCase() + key.slice(1)}
          </button>
        ))}
      </div>
      <p className="mirror-control muted">
        {personHasControl ? 'You have control: click to tap, drag to swipe.' : 'The agent is in control. Pause the task to use the phone yourself.'}
      </p>
      <MirrorStats serial={device.serial} />
    </div>
  );
}
