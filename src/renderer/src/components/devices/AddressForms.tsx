import { useState, type FormEvent } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { plainError } from '../../lib/errors';
import { useDevicesStore } from '../../store/devices-store';

/** Busy flag and plain-words result of one form's request. */
function useRequest() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (request: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ ok: true, text: await request() });
    } catch (error) {
      setMessage({ ok: false, text: plainError(error) });
    } finally {
      setBusy(false);
    }
  };
  return { busy, message, run };
}

function Result({ message, id }: { message: { ok: boolean; text: string } | null; id: string }) {
  if (!message) return null;
  return (
    <p id={id} className={message.ok ? 'form-ok' : 'field-problem'} role={message.ok ? 'status' : 'alert'}>
      {message.text}
    </p>
  );
}

/** `adb connect HOST:PORT`. */
export function ConnectForm() {
  const bridge = useBridge();
  const [address, setAddress] = useState('');
  const { busy, message, run } = useRequest();
  const { t } = useWords();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { serial } = await bridge.call('devices.connect', { address });
      useDevicesStore.getState().select(serial);
      setAddress('');
      return t('app:devices.connected', { serial });
    });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={t('app:devices.connectLabel')}>
      <label htmlFor="connect-address">{t('app:devices.connectAddress')}</label>
      <div className="form-row">
        <input
          id="connect-address"
          placeholder="192.168.1.20:5555"
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          aria-describedby={message ? 'connect-result' : undefined}
          spellCheck={false}
        />
        <button type="submit" className="button secondary" disabled={busy || !address.trim()}>
          {busy ? t('app:devices.connecting') : t('app:devices.connect')}
        </button>
      </div>
      <Result message={message} id="connect-result" />
    </form>
  );
}

/** Wireless debugging: the address and six-digit code from "Pair device with pairing code". */
export function PairForm() {
  const bridge = useBridge();
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const { busy, message, run } = useRequest();
  const { t } = useWords();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await bridge.call('devices.pair', { address, code });
      setCode('');
      return t('app:devices.paired', { message: answer.message });
    });
  };
  return (
    <details className="pair">
      <summary>{t('app:devices.pairSummary')}</summary>
      <form className="inline-form" onSubmit={submit} aria-label={t('app:devices.pairLabel')}>
        <p className="muted small">{t('app:devices.pairHowTo')}</p>
        <label htmlFor="pair-address">{t('app:devices.pairAddress')}</label>
        <input id="pair-address" placeholder="192.168.1.20:37099" value={address} onChange={(event) => setAddress(event.target.value)} spellCheck={false} />
        <label htmlFor="pair-code">{t('app:devices.pairCode')}</label>
        <div className="form-row">
          <input
            id="pair-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <button type="submit" className="button secondary" disabled={busy || !address.trim() || !code.trim()}>
            {busy ? t('app:devices.pairing') : t('app:devices.pair')}
          </button>
        </div>
        <Result message={message} id="pair-result" />
      </form>
    </details>
  );
}
