import { useState, type FormEvent } from 'react';
import { useBridge } from '../../bridge-context';
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { serial } = await bridge.call('devices.connect', { address });
      useDevicesStore.getState().select(serial);
      setAddress('');
      return `Connected to ${serial}.`;
    });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Connect over the network">
      <label htmlFor="connect-address">Connect by address</label>
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
          {busy ? 'Connecting…' : 'Connect'}
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await bridge.call('devices.pair', { address, code });
      setCode('');
      return `${answer.message} Now connect with the address shown under "Wireless debugging".`;
    });
  };
  return (
    <details className="pair">
      <summary>Pair over Wi-Fi (Android 11+)</summary>
      <form className="inline-form" onSubmit={submit} aria-label="Pair over Wi-Fi">
        <p className="muted small">On the phone: Developer options → Wireless debugging → Pair device with pairing code.</p>
        <label htmlFor="pair-address">Pairing address</label>
        <input id="pair-address" placeholder="192.168.1.20:37099" value={address} onChange={(event) => setAddress(event.target.value)} spellCheck={false} />
        <label htmlFor="pair-code">Pairing code</label>
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
            {busy ? 'Pairing…' : 'Pair'}
          </button>
        </div>
        <Result message={message} id="pair-result" />
      </form>
    </details>
  );
}
