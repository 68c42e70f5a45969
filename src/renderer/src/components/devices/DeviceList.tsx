import type { DeviceState, DeviceSummary } from '../../../../shared/device';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { phoneName, useDevicesStore } from '../../store/devices-store';

/** What to do about a phone that is listed but not usable, when main gave no hint of its own. */
const STATE_HINTS: Partial<Record<DeviceState, string>> = {
  unauthorized: 'Unlock the phone and accept the "Allow USB debugging?" prompt.',
  offline: 'The phone is not answering. Reconnect the cable or restart USB debugging.',
  authorizing: 'Waiting for the phone to accept this computer…',
  connecting: 'Connecting…',
  'no-permissions': 'This computer may not access the phone over USB (check the udev rules).',
};

const STATE_WORDS: Record<DeviceState, string> = {
  device: 'ready',
  offline: 'offline',
  unauthorized: 'not authorized',
  authorizing: 'authorizing',
  connecting: 'connecting',
  'no-permissions': 'no permission',
  bootloader: 'in bootloader',
  recovery: 'in recovery',
  sideload: 'in sideload',
  unknown: 'unknown state',
};

export function DeviceList() {
  const list = useDevicesStore((s) => s.list);
  const selected = useDevicesStore((s) => s.selectedSerial);
  const select = useDevicesStore((s) => s.select);
  if (!list) return <p className="muted">Looking for phones…</p>;
  return (
    <>
      {list.problem && (
        <p className="banner warning" role="alert" data-testid="devices-problem">
          {list.problem}
        </p>
      )}
      {list.devices.length === 0 ? (
        <p className="empty" data-testid="devices-empty">
          No phone connected yet. Plug one in with USB debugging on, connect over Wi-Fi, or start the demo phone.
        </p>
      ) : (
        <ul className="device-list" aria-label="Phones">
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
  const hint = device.state === 'device' ? null : (device.hint ?? STATE_HINTS[device.state] ?? null);
  return (
    <li className={`device-row${selected ? ' is-selected' : ''}`} data-testid="device-row" data-serial={device.serial}>
      <button type="button" className="device-select" aria-pressed={selected} onClick={onSelect}>
        <span className="device-model">{(device.name ?? device.model) ? phoneName(device) : 'Unknown phone'}</span>
        <span className="device-meta">
          <code>{device.serial}</code> · <span className="badge">{device.connection.toUpperCase()}</span>
          {device.androidVersion && <> · Android {device.androidVersion}</>}
        </span>
        <span className={`device-state state-${device.state}`}>{STATE_WORDS[device.state]}</span>
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
          aria-label={`Disconnect ${device.serial}`}
          onClick={() => bridge.call('devices.disconnect', { serial: device.serial }).catch(reportError)}
        >
          Disconnect
        </button>
      )}
    </li>
  );
}
