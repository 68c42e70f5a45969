import { useRef, useState, type ChangeEvent } from 'react';
import { useBridge } from '../../bridge-context';
import type { Words } from '../../../../shared/i18n/translate';
import { useWords } from '../../i18n/use-words';
import { plainError } from '../../lib/errors';
import type { FlowProblem } from '../../../../shared/contract/flows';
import { wordSaid } from '../../../../shared/said';

/** How a problem of a flow file reads: "line 7, column 5: …", as `amc flow check` prints it, worded from its code. */
const problemLine = ({ line, column, message, said }: FlowProblem, words: Words) => {
  const worded = wordSaid(message, said, words);
  return line === undefined ? worded : words.t('app:flow.problemAt', { line, column: column ?? 1, message: worded });
};

/**
 * "Flow file…" (runs one): the person picks a flow file (YAML) from their disk — the browser's own file picker, in the
 * desktop window and in a browser tab alike — main checks it, and `run` starts it (on the selected phone, or on the
 * phones picked in Several phones); a file with problems starts nothing and its problems are listed with their lines.
 */
export function FlowFileButton({ disabledReason, title, run: start }: { disabledReason: string | null; title: string; run(text: string): Promise<void> }) {
  const bridge = useBridge();
  const input = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<{ file: string; lines: string[] } | null>(null);
  const words = useWords();
  const { t } = words;

  const run = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be picked again after it is fixed.
    event.target.value = '';
    if (!file) return;
    setProblems(null);
    try {
      const text = await file.text();
      const checked = await bridge.call('flows.check', { text });
      if (!checked.ok) {
        setProblems({ file: file.name, lines: checked.problems.map((problem) => problemLine(problem, words)) });
        return;
      }
      await start(text);
    } catch (error) {
      setProblems({ file: file.name, lines: [plainError(error)] });
    }
  };

  return (
    <>
      <button type="button" className="button link flow-file-button" disabled={disabledReason !== null} title={disabledReason ?? title} onClick={() => input.current?.click()}>
        {t('app:flow.run')}
      </button>
      <input ref={input} type="file" accept=".yaml,.yml,application/yaml,text/yaml" hidden onChange={(event) => void run(event)} data-testid="flow-file-input" aria-label={t('app:flow.inputLabel')} />
      {problems && (
        <div className="banner warning" role="alert" data-testid="flow-file-problems">
          <p>{t('app:flow.notRun', { file: problems.file })}</p>
          <ul>
            {problems.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
