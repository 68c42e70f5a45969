import { useWords } from '../../i18n/use-words';
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
  const { t } = useWords();
  return (
    <section className="panel device-panel" aria-labelledby="devices-title">
      {/* Wide (the splitter dragged out), the phone takes the whole height and the rest moves beside it. */}
      <div className="device-panel-inner">
      <div className="panel-header">
        <h2 id="devices-title">{t('app:devices.title')}</h2>
        <button type="button" className="button secondary" onClick={() => void demo.startDemo()} disabled={demo.starting}>
          {demo.starting ? t('app:devices.starting') : demo.label}
        </button>
      </div>
      {demo.message && (
        <p className={demo.message.ok ? 'form-ok small' : 'field-problem'} role={demo.message.ok ? 'status' : 'alert'} data-testid="demo-result">
          {demo.message.text}
        </p>
      )}
      {vanished && (
        <p className="banner warning" role="alert" data-testid="selected-phone-gone">
          {t('app:devices.selectedGone', { phone: vanished })}
        </p>
      )}
      <DeviceList />
      {device?.state === 'device' ? (
        <Mirror key={device.serial} device={device} />
      ) : (
        <div className="mirror-placeholder" aria-label={t('app:devices.mirrorLabel')}>
          <span>{device ? t('app:devices.notReady') : t('app:devices.screenHere')}</span>
        </div>
      )}
      <details className="add-phone">
        <summary>{t('app:devices.addPhone')}</summary>
        <ConnectForm />
        <PairForm />
      </details>
      </div>
    </section>
  );
}
