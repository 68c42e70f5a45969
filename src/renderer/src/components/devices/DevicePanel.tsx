import { nameOfSerial, selectedDevice, useDevicesStore } from '../../store/devices-store';
import { ConnectForm, PairForm } from './AddressForms';
import { DeviceList } from './DeviceList';
import { Mirror } from './Mirror';
import { useStartDemo } from './use-start-demo';

/** Phones, the selected one live (the area keeps the phone in view whatever the timeline does), and adding phones. */
export function DevicePanel() {
  const device = useDevicesStore(selectedDevice);
  const vanished = useDevicesStore((s) => (s.vanishedSerial ? nameOfSerial(s, s.vanishedSerial) : null));
  const demo = useStartDemo();
  return (
    <section className="panel device-panel" aria-labelledby="devices-title">
      {/* Wide (the splitter dragged out), the phone takes the whole height and the rest moves beside it. */}
      <div className="device-panel-inner">
      <div className="panel-header">
        <h2 id="devices-title">Devices</h2>
        <button type="button" className="button secondary" onClick={() => void demo.startDemo()} disabled={demo.starting}>
          {demo.starting ? 'Starting…' : demo.label}
        </button>
      </div>
      {demo.message && (
        <p className={demo.message.ok ? 'form-ok small' : 'field-problem'} role={demo.message.ok ? 'status' : 'alert'} data-testid="demo-result">
          {demo.message.text}
        </p>
      )}
      {vanished && (
        <p className="banner warning" role="alert" data-testid="selected-phone-gone">
          The phone you selected ({vanished}) is no longer connected. Pick a phone to run goals on.
        </p>
      )}
      <DeviceList />
      {device?.state === 'device' ? (
        <Mirror key={device.serial} device={device} />
      ) : (
        <div className="mirror-placeholder" aria-label="Phone mirror">
          <span>{device ? 'The phone is not ready yet (see above).' : 'The selected phone’s screen appears here.'}</span>
        </div>
      )}
      <details className="add-phone">
        <summary>Connect a phone over the network</summary>
        <ConnectForm />
        <PairForm />
      </details>
      </div>
    </section>
  );
}
