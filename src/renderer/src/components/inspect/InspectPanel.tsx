import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { formatTime } from '../../lib/format';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { closeInspect, inspect, useInspectStore } from '../../store/inspect-store';
import { useMirrorStore } from '../../store/mirror-store';
import { BoxLayout } from './BoxLayout';
import { ElementDetails } from './ElementDetails';
import { ElementTree } from './ElementTree';
import { useInspectShortcut } from './use-inspect-shortcut';

/**
 * Inspect: where the Scene came from, a picture to point at when the live mirror is not that screen (a History step,
 * or no frame yet), the elements' tree with search, and the selected element's fields and locators. Esc closes it.
 */
export function InspectPanel() {
  const bridge = useBridge();
  const words = useWords();
  const { t } = words;
  const { target, screen, reading, problem, selectedId, pointedId, query } = useInspectStore();
  const phoneName = useDevicesStore((s) => (screen?.serial ? nameOfSerial(s, screen.serial) : ''));
  const mirrorShowsIt = useMirrorStore((s) => target?.kind === 'phone' && s.painted?.serial === target.serial);
  const heading = useRef<HTMLHeadingElement>(null);
  useInspectShortcut();
  const opened = target !== null;
  useEffect(() => {
    if (opened) heading.current?.focus({ preventScroll: true });
  }, [opened]);
  if (!target) return null;

  const selected = screen?.scene.elements.find((element) => element.id === selectedId);
  const lines = screen?.locators.find((line) => line.id === selectedId);
  const close = () => {
    closeInspect();
    document.querySelector<HTMLElement>('[data-testid="inspect-toggle"]')?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    close();
  };
  const source = !screen
    ? null
    : screen.source === 'phone'
      ? t('inspect:fromPhone', { phone: phoneName, time: formatTime(screen.readAt, words) })
      : screen.source === 'task'
        ? t('inspect:fromTask', { step: screen.step })
        : t('inspect:fromHistory', { step: screen.step, time: formatTime(screen.readAt, words) });

  return (
    <section className="panel inspect-panel" aria-labelledby="inspect-title" data-testid="inspect-panel" onKeyDown={onKeyDown}>
      <div className="panel-header">
        <h2 id="inspect-title" ref={heading} tabIndex={-1}>
          {t('inspect:title')}
        </h2>
        <div className="inspect-actions">
          {target.kind === 'phone' && (
            <button type="button" className="button secondary" disabled={reading} onClick={() => void inspect(bridge, target)} data-testid="inspect-read-again">
              {reading ? t('inspect:reading') : t('inspect:readAgain')}
            </button>
          )}
          <button type="button" className="button secondary" onClick={close} aria-keyshortcuts="Escape" data-testid="inspect-close">
            {t('inspect:close')}
          </button>
        </div>
      </div>
      {source && (
        <p className="muted small" data-testid="inspect-source" data-source={screen?.source}>
          {source} · {t('inspect:elements', { count: screen?.scene.elements.length ?? 0 })}
          {screen?.scene.elementsLeftOut ? ` · ${t('inspect:leftOut', { count: screen.scene.elementsLeftOut })}` : ''}
        </p>
      )}
      {reading && !screen && (
        <p className="muted" role="status">
          {t('inspect:reading')}
        </p>
      )}
      {problem && (
        <p className="field-problem" role="alert" data-testid="inspect-problem">
          {problem}
        </p>
      )}
      {screen && (
        <div className={`inspect-body${mirrorShowsIt ? '' : ' has-boxes'}`}>
          <div className="inspect-left">
            {!mirrorShowsIt && (
              <>
                <BoxLayout scene={screen.scene} selectedId={selectedId} pointedId={pointedId} label={t('inspect:boxesLabel')} />
                <p className="muted small">{t('inspect:noPicture')}</p>
              </>
            )}
            <ElementTree scene={screen.scene} selectedId={selectedId} query={query} />
          </div>
          {selected ? (
            <ElementDetails element={selected} lines={lines} />
          ) : (
            <p className="muted inspect-details" data-testid="inspect-hint">
              {t(mirrorShowsIt ? 'inspect:hintMirror' : 'inspect:hintBoxes')}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
