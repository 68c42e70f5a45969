import { useEffect, useMemo, useRef, useState, type CompositionEvent, type FormEvent, type KeyboardEvent, type PointerEvent } from 'react';
import { handsPhoneOver } from '../../../../shared/contract';
import type { DeviceSummary } from '../../../../shared/device';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { phoneName } from '../../store/devices-store';
import { reportError } from '../../store/app-store';
import { useMirrorStore } from '../../store/mirror-store';
import { inspectsPhone, pinElement, pointAtElement, useInspectStore } from '../../store/inspect-store';
import { elementAt } from '../../../../shared/scene-tree';
import { InspectOutline } from '../inspect/InspectOutline';
import { entryFor, isRunning, useTaskStore } from '../../store/task-store';
import { targetPoint } from '../timeline/step-view';
import { deviceSize, toDevicePoint, type Size } from './device-geometry';
import { currentFolderName, forgetFolder } from '../../lib/save-to-folder';
import { createKeyboardQueue } from './keyboard-queue';
import { MirrorControls } from './MirrorControls';
import { RecordControls } from '../recording/RecordControls';
import { useRecording } from '../recording/use-recording';
import { MirrorStats } from './MirrorStats';
import { useFitSize } from './use-fit-size';
import { useMirrorFrames } from './use-mirror-frames';
import { useScreenshotSaver } from './use-screenshot-saver';
import { mirrorLongEdge, VideoPainter } from './video-painter';

/** Movement (CSS pixels) below which a press is a tap rather than a swipe. */
const TAP_SLOP_PX = 8;
/** A press held this long without moving is a touch and hold (long_press), sent while the finger is still down. */
const LONG_PRESS_HOLD_MS = 500;

/**
 * The selected phone, live, as large as its area allows. A click taps, a press held still for half a second touches
 * and holds (long press), a drag swipes and typing goes to the phone
 * while the person has control (no task running on this phone, or it is paused); while the agent acts, its last
 * target is marked instead.
 */
export function Mirror({ device }: { device: DeviceSummary }) {
  const bridge = useBridge();
  const canvas = useRef<HTMLCanvasElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const keyboard = useRef<HTMLTextAreaElement>(null);
  /** The press under way: where and when it began, its hold timer, and whether the hold was already sent as a long press. */
  const press = useRef<{ x: number; y: number; at: number; box: { width: number; height: number }; hold?: number; held?: boolean } | null>(null);
  const [sending, setSending] = useState(false);
  const painted = useMirrorStore((s) => (s.painted?.serial === device.serial ? s.painted : null));
  const entry = useTaskStore(entryFor(device.serial));
  const agentActive = isRunning(entry?.task);
  const personHasControl = !agentActive || entry?.paused === true || handsPhoneOver(entry?.task.pending?.request);
  useMirrorFrames(canvas, device.serial);
  const checking = useRecording(device.serial)?.checking ?? null;
  const inspecting = useInspectStore(inspectsPhone(device.serial));
  const inspected = useInspectStore((s) => (inspecting ? s.screen?.scene : undefined));
  const selectedId = useInspectStore((s) => s.selectedId);
  const pointedId = useInspectStore((s) => s.pointedId);
  const words = useWords();
  const { t } = words;

  useEffect(() => {
    if (device.state !== 'device') return;
    bridge
      .call('mirror.start', { serial: device.serial, maxSize: mirrorLongEdge(canvas.current), decodesVideo: VideoPainter.supported() })
      .then((status) => useMirrorStore.getState().setStatus(status))
      .catch(reportError);
  }, [bridge, device.serial, device.state]);

  const size: Size | null = painted ? deviceSize(painted, device.screen) : null;
  const fitted = useFitSize(stage, size ?? (device.screen ? deviceSize({ width: 9, height: 19 }, device.screen) : null));
  const screenshot = useScreenshotSaver(device.serial);
  const typing = useMemo(
    () =>
      createKeyboardQueue(
        (input) =>
          input.kind === 'text'
            ? bridge.call('devices.typeText', { serial: device.serial, text: input.text })
            : bridge.call('devices.pressKey', { serial: device.serial, key: input.key }),
        reportError,
      ),
    [bridge, device.serial],
  );
  // A hold still pending when the mirror goes away is never sent.
  useEffect(() => () => {
    const pending = press.current;
    if (pending?.hold !== undefined) window.clearTimeout(pending.hold);
  }, []);
  const lastStep = agentActive ? entry?.task.steps.findLast((step) => step.planned) : undefined;
  const target = lastStep ? targetPoint(lastStep) : null;

  const pointFrom = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top, box: { width: box.width, height: box.height } };
  };

  /** While inspecting, the pointer picks elements of the layout read (in its own pixels) and nothing reaches the phone. */
  const inspectedAt = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!inspected) return null;
    const { x, y, box } = pointFrom(event);
    return elementAt(inspected, toDevicePoint({ x, y }, box, inspected.screen))?.id ?? null;
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (inspecting) return;
    if (!personHasControl || !size || event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const { x, y, box } = pointFrom(event);
    const started: NonNullable<typeof press.current> = { x, y, box, at: performance.now() };
    // After "Add check" a press only names the element; otherwise one held still becomes a long press, sent at once.
    if (!checking) started.hold = window.setTimeout(() => holdPress(started), LONG_PRESS_HOLD_MS);
    press.current = started;
  };

  const holdPress = (held: NonNullable<typeof press.current>) => {
    if (press.current !== held || !size) return;
    held.held = true;
    setSending(true);
    bridge
      .call('devices.longPress', { serial: device.serial, ...toDevicePoint(held, held.box, size) })
      .catch(reportError)
      .finally(() => setSending(false));
  };

  /** A press that moves beyond the slop is a swipe: its hold no longer counts. */
  const onPressMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const start = press.current;
    if (!start || start.hold === undefined) return;
    const { x, y } = pointFrom(event);
    if (Math.hypot(x - start.x, y - start.y) > TAP_SLOP_PX) {
      window.clearTimeout(start.hold);
      start.hold = undefined;
    }
  };

  const endPress = () => {
    if (press.current?.hold !== undefined) window.clearTimeout(press.current.hold);
    press.current = null;
  };

  const onPointerUp = (event: PointerEvent<HTMLCanvasElement>) => {
    if (inspecting) {
      pinElement(inspectedAt(event));
      return;
    }
    const start = press.current;
    endPress();
    // Clicking the phone also gives it the keyboard, as clicking a field would (after the press, which moved focus).
    keyboard.current?.focus({ preventScroll: true });
    if (!start || start.held || !size || !personHasControl) return;
    const end = pointFrom(event);
    const from = toDevicePoint(start, end.box, size);
    const to = toDevicePoint(end, end.box, size);
    const moved = Math.hypot(end.x - start.x, end.y - start.y) > TAP_SLOP_PX;
    const durationMs = Math.min(Math.max(Math.round(performance.now() - start.at), 100), 2000);
    setSending(true);
    // After "Add check" a click names the element to check; it does not tap it.
    const sent = checking && !moved
      ? bridge.call('record.addCheck', { serial: device.serial, kind: checking, ...from })
      : moved
      ? bridge.call('devices.swipe', { serial: device.serial, fromX: from.x, fromY: from.y, toX: to.x, toY: to.y, durationMs })
      : bridge.call('devices.tap', { serial: device.serial, ...from });
    sent.catch(reportError).finally(() => setSending(false));
  };

  /** Enter and Backspace are keys on the phone; other keys reach the text area and arrive as text (onInput). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.nativeEvent.isComposing) return;
    const key = event.key === 'Enter' ? 'enter' : event.key === 'Backspace' ? 'delete' : null;
    if (!key) return;
    event.preventDefault();
    if (personHasControl) typing.push({ kind: 'key', key });
  };
  /** Typed or composed (IME, dead keys) text: sent once complete, then the area is emptied for the next. */
  const takeText = (event: FormEvent<HTMLTextAreaElement> | CompositionEvent<HTMLTextAreaElement>) => {
    if ('isComposing' in event.nativeEvent && event.nativeEvent.isComposing) return;
    const area = event.currentTarget;
    const text = area.value;
    area.value = '';
    if (text && personHasControl) typing.push({ kind: 'text', text });
  };

  return (
    <div className="mirror" data-testid="mirror">
      <div className="mirror-body">
        <div className="mirror-stage" ref={stage}>
          <div
            className={`mirror-screen${inspecting ? ' is-inspecting' : personHasControl ? ' is-interactive' : ''}${sending ? ' is-sending' : ''}`}
            style={fitted ? { width: fitted.width, height: fitted.height } : undefined}
          >
            <canvas
              ref={canvas}
              className="mirror-canvas"
              data-testid="mirror-canvas"
              data-seq={painted?.seq ?? ''}
              aria-label={t(inspecting ? 'inspect:mirrorLabel' : personHasControl ? 'app:mirror.liveScreenControl' : 'app:mirror.liveScreen', { phone: phoneName(device, words) })}
              role="img"
              onPointerDown={onPointerDown}
              onPointerUp={onPointerUp}
              onPointerMove={(event) => (inspecting ? pointAtElement(inspectedAt(event)) : onPressMove(event))}
              onPointerLeave={() => inspecting && pointAtElement(null)}
              onPointerCancel={endPress}
            />
            <textarea
              ref={keyboard}
              className="mirror-keyboard"
              aria-label={t('app:mirror.typeLabel')}
              data-testid="mirror-keyboard"
              autoComplete="off"
              autoCorrect="off"
              autoCapitalize="off"
              spellCheck={false}
              onKeyDown={onKeyDown}
              onInput={takeText}
              onCompositionEnd={takeText}
            />
            {!painted && <p className="mirror-waiting muted">{t('app:mirror.waiting')}</p>}
            {inspected && <InspectOutline scene={inspected} selectedId={selectedId} pointedId={pointedId} />}
            {size && target && (
              <svg className="mirror-overlay" viewBox={`0 0 ${size.width} ${size.height}`} preserveAspectRatio="none" aria-hidden="true">
                <circle className="mirror-target" data-testid="mirror-target" cx={target.x} cy={target.y} r={Math.max(size.width, size.height) / 40} />
              </svg>
            )}
          </div>
        </div>
        <MirrorControls serial={device.serial} personHasControl={personHasControl} saving={screenshot.saving} onSaveScreenshot={() => void screenshot.save()} />
      </div>
      <RecordControls serial={device.serial} personHasControl={personHasControl} />
      <p className="mirror-control muted" data-testid="mirror-control">
        {personHasControl
          ? t('app:mirror.youControl')
          : t('app:mirror.agentControls')}
      </p>
      {screenshot.result && (
        <p className={screenshot.result.ok ? 'form-ok small' : 'field-problem'} role={screenshot.result.ok ? 'status' : 'alert'} data-testid="screenshot-result">
          {screenshot.result.text}
          {screenshot.result.ok && currentFolderName() && (
            <>
              {' '}
              <button
                type="button"
                className="button link"
                onClick={() => {
                  forgetFolder();
                  screenshot.clear();
                }}
              >
                {t('app:mirror.otherFolder')}
              </button>
            </>
          )}
        </p>
      )}
      <MirrorStats serial={device.serial} />
    </div>
  );
}
