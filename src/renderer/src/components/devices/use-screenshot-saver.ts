import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { plainError } from '../../lib/errors';
import { saveToFolder } from '../../lib/save-to-folder';

const fromBase64 = (base64: string) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

/** "Save screenshot": the phone's PNG at full size, into the folder the person picks; says where it went. */
export function useScreenshotSaver(serial: string) {
  const bridge = useBridge();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const words = useWords();
  const save = async () => {
    setSaving(true);
    setResult(null);
    try {
      const file = await bridge.call('devices.screenshot', { serial });
      const where = await saveToFolder(file.fileName, new Blob([fromBase64(file.base64)], { type: file.mediaType }), words);
      setResult({ ok: true, text: words.t('app:mirror.saved', { where }) });
    } catch (error) {
      // Closing the folder picker is a change of mind, not a failure.
      if (!(error instanceof DOMException && error.name === 'AbortError')) setResult({ ok: false, text: plainError(error) });
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, result, clear: () => setResult(null) };
}
