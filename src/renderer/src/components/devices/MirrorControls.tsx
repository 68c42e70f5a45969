import type { MirrorKey } from '../../../../shared/contract';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';
import { InspectToggle } from '../inspect/InspectToggle';

/** The keys beside the mirror, in order; each has a name (`app:mirror.key.*`) and a short form for the button. */
const KEY_BUTTONS: readonly MirrorKey[] = ['back', 'home', 'recents', 'volume_up', 'volume_down', 'power'];

interface Props {
  serial: string;
  personHasControl: boolean;
  saving: boolean;
  onSaveScreenshot(): void;
}

/** The phone's keys, rotate and "save screenshot": a column beside the mirror, so the screen keeps the height. */
export function MirrorControls({ serial, personHasControl, saving, onSaveScreenshot }: Props) {
  const bridge = useBridge();
  const pressKey = (key: MirrorKey) => bridge.call('devices.pressKey', { serial, key }).catch(reportError);
  const rotate = () => bridge.call('devices.rotate', { serial }).catch(reportError);
  const { t } = useWords();
  return (
    <div className="mirror-keys" role="group" aria-label={t('app:mirror.keysLabel')}>
      {KEY_BUTTONS.map((key) => (
        <button
          key={key}
          type="button"
          className="button secondary icon"
          disabled={!personHasControl}
          onClick={() => void pressKey(key)}
          aria-label={t(`app:mirror.key.${key}`)}
          title={t(`app:mirror.key.${key}`)}
        >
          <span aria-hidden="true">{t(`app:mirror.short.${key}`)}</span>
        </button>
      ))}
      <button type="button" className="button secondary icon" disabled={!personHasControl} onClick={() => void rotate()} aria-label={t('app:mirror.rotateLabel')} title={t('app:mirror.rotateTitle')}>
        <span aria-hidden="true">{t('app:mirror.rotate')}</span>
      </button>
      <button type="button" className="button secondary icon" disabled={saving} onClick={onSaveScreenshot} aria-label={t('app:mirror.captureLabel')} title={t('app:mirror.captureTitle')}>
        <span aria-hidden="true">{t('app:mirror.capture')}</span>
      </button>
      <InspectToggle serial={serial} />
    </div>
  );
}
