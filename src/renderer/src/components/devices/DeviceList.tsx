import type { DeviceState, DeviceSummary } from '../../../../shared/device';
import { wordSaid } from '../../../../shared/said';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';
import { phoneName, useDevicesStore } from '../../store/devices-store';

/** The states with a hint of ours for a phone that is listed but not usable, when main gave none of its own. */
const HINTED_STATES: ReadonlySet<DeviceState> = new Set(['unauthorized', 'offline', 'authorizing', 'connecting', 'no-permissions']);

export function DeviceList() {
  const list = useDevicesStore((s) => s.list);
  const selected = useDevicesStore((s) => s.selectedSerial);
  const select = useDevicesStore((s) => s.select);
  const words = useWords();
  const { t } = words;
  if (!list) return <p className="muted">{t('app:devices.looking')}</p>;
  return (
    <>
      {list.problem && (
        <p className="banner warning" role="alert" data-testid="devices-problem">
          {wordSaid(list.problem, list.problemSaid, words)}
        </p>
      )}
      {list.devices.length === 0 ? (
        <p className="empty" data-testid="devices-empty">
          {t('app:devices.empty')}
        </p>
      ) : (
        <ul className="device-list" aria-label={t('app:devices.listLabel')}>
          {list.devices.map((device) => (
            <DeviceRow key={device.serial} device={device} selected={device.serial === selected} onSelect={() => select(device.serial)} />
          ))}
        </ul>
      )}
    </>
  );
}

function DeviceRow({ device, selected, onSelect }: { device: DeviceSummary; selected: boolean; onSelect(): void }) {
  const bridge = useBridge();
  const words = useWords();
  const { t } = words;
  const ownHint = HINTED_STATES.has(device.state) ? t(`app:devices.hint.${device.state}`) : null;
  const hint = device.state === 'device' ? null : device.hint ? wordSaid(device.hint, device.hintSaid, words) : ownHint;
  return (
    <li className={`device-row${selected ? ' is-selected' : ''}`} data-testid="device-row" data-serial={device.serial}>
      <button type="button" className="device-select" aria-pressed={selected} onClick={onSelect}>
        <span className="device-model">{(device.name ?? device.model) ? phoneName(device, words) : t('app:devices.unknownPhone')}</span>
        <span className="device-meta">
          <code>{device.serial}</code> · <span className="badge">{device.connection.toUpperCase()}</span>
          {device.androidVersion && t('app:devices.android', { version: device.androidVersion })}
        </span>
        <span className={`device-state state-${device.state}`}>{t(`app:devices.state.${device.state}`)}</span>
      </button>
      {hint && (
        <p className="device-hint" data-testid="device-hint">
          {hint}
        </p>
      )}
      {device.connection === 'tcp' && (
        <button
          type="button"
          className="button link"
          aria-label={t('app:devices.disconnectLabel', { serial: device.serial })}
          onClick={() => bridge.call('devices.disconnect', { serial: device.serial }).catch(reportError)}
        >
          {t('app:devices.disconnect')}
        </button>
      )}
    </li>
  );
}
