import { selectedDevice, useDevicesStore } from '../../store/devices-store';
import { ConnectForm, PairForm } from './AddressForms';
import { DeviceList } from './DeviceList';
import { Mirror } from './Mirror';
import { useStartDemo } from './use-start-demo';

export function DevicePanel() {
  const device = useDevicesStore(selectedDevice);
  const { starting, startDemo } = useStartDemo();
  return (
    <section className="panel device-panel" aria-labelledby="devices-title">
      <div className="panel-header">
        <h2 id="devices-title">Devices</h2>
        <button type="button" className="button secondary" onClick={() => void startDemo()} disabled={starting}>
          {starting ? 'Starting…' : 'Start demo phone'}
        </button>
      </div>
      <DeviceList />
      {device?.state === 'device' ? (
        <Mirror key={device.serial} device={device} />
      ) : (
        <div className="mirror-placeholder" aria-label="Phone mirror">
          <span>{device ? 'The phone is not ready yet (see above).' : 'The selected phone’s screen appears here.'}</span>
        </div>
      )}
      <ConnectForm />
      <PairForm />
    </section>
  );
}
