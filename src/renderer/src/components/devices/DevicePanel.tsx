import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { selectedDevice, useDevicesStore } from '../../store/devices-store';
import { ConnectForm, PairForm } from './AddressForms';
import { DeviceList } from './DeviceList';
import { Mirror } from './Mirror';

export function DevicePanel() {
  const bridge = useBridge();
  const device = useDevicesStore(selectedDevice);
  const [starting, setStarting] = useState(false);
  const startDemo = async () => {
    setStarting(true);
    try {
      const { serial } = await bridge.call('devices.startDemo', {});
      useDevicesStore.getState().select(serial);
    } catch (error) {
      reportError(error);
    } finally {
      setStarting(false);
    }
  };
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
