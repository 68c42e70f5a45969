import type { MirrorKey } from '../../../../shared/contract';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';

const KEY_BUTTONS: Array<{ key: MirrorKey; label: string; short: string }> = [
  { key: 'back', label: 'Back', short: 'Back' },
  { key: 'home', label: 'Home', short: 'Home' },
  { key: 'recents', label: 'Recents', short: 'Recents' },
  { key: 'volume_up', label: 'Volume up', short: 'Vol +' },
  { key: 'volume_down', label: 'Volume down', short: 'Vol −' },
  { key: 'power', label: 'Power', short: 'Power' },
];

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
  return (
    <div className="mirror-keys" role="group" aria-label="Phone keys">
      {KEY_BUTTONS.map(({ key, label, short }) => (
        <button key={key} type="button" className="button secondary icon" disabled={!personHasControl} onClick={() => void pressKey(key)} aria-label={label} title={label}>
          <span aria-hidden="true">{short}</span>
        </button>
      ))}
      <button type="button" className="button secondary icon" disabled={!personHasControl} onClick={() => void rotate()} aria-label="Rotate" title="Rotate (turns auto-rotate off)">
        <span aria-hidden="true">Rotate</span>
      </button>
      <button type="button" className="button secondary icon" disabled={saving} onClick={onSaveScreenshot} aria-label="Save screenshot" title="Save a screenshot of the phone (PNG)">
        <span aria-hidden="true">Capture</span>
      </button>
    </div>
  );
}
