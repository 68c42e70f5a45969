import { useState } from 'react';
import type { ElementLocatorLines } from '../../../../shared/contract';
import type { SceneElement } from '../../../../shared/scene';
import { useWords } from '../../i18n/use-words';
import { copyText } from './copy-text';

/** The flags a Scene element may carry, each shown by its own word when set. */
const FLAGS = ['clickable', 'longClickable', 'scrollable', 'editable', 'focused', 'selected', 'password', 'disabled', 'covered'] as const;

interface Props {
  element: SceneElement;
  lines: ElementLocatorLines | undefined;
}

/** One element as the model sees it (its Scene id and fields) and a tap on it in both flow syntaxes, each with Copy. */
export function ElementDetails({ element, lines }: Props) {
  const { t } = useWords();
  const flags = [
    ...FLAGS.filter((flag) => element[flag]).map((flag) => t(`inspect:flag.${flag}`)),
    ...(element.checked === undefined ? [] : [t(element.checked ? 'inspect:flag.checked' : 'inspect:flag.unchecked')]),
  ];
  const [left, top, right, bottom] = element.bounds;
  const fields: Array<[label: string, value: string | undefined, testId: string]> = [
    [t('inspect:field.id'), element.id, 'id'],
    [t('inspect:field.class'), element.type, 'class'],
    [t('inspect:field.text'), element.text, 'text'],
    [t('inspect:field.desc'), element.desc, 'desc'],
    [t('inspect:field.hint'), element.hint, 'hint'],
    [t('inspect:field.resourceId'), element.resourceId, 'resource-id'],
    [t('inspect:field.bounds'), `[${left},${top}][${right},${bottom}] · ${right - left}×${bottom - top}`, 'bounds'],
    [t('inspect:field.state'), flags.join(t('inspect:flagSeparator')) || t('inspect:flag.none'), 'state'],
    [t('inspect:field.row'), element.row, 'row'],
    [t('inspect:field.window'), element.window && t(`inspect:window.${element.window}`), 'window'],
    [t('inspect:field.unlabeled'), element.unlabeled, 'unlabeled'],
  ];
  return (
    <section className="inspect-details" aria-labelledby="inspect-details-title" data-testid="inspect-details" data-element-id={element.id}>
      <h3 id="inspect-details-title">{t('inspect:detailsTitle', { id: element.id })}</h3>
      <dl className="inspect-fields">
        {fields
          .filter(([, value]) => value !== undefined)
          .map(([label, value, testId]) => (
            <div key={testId}>
              <dt>{label}</dt>
              <dd data-testid={`inspect-field-${testId}`}>{value}</dd>
            </div>
          ))}
      </dl>
      <h3>{t('inspect:locatorTitle')}</h3>
      {lines && !lines.locator && <p className="step-warning small">{t('inspect:byPoint')}</p>}
      {lines && <LocatorLine key={lines.ours} syntax="ours" label={t('inspect:ours')} line={lines.ours} />}
      {lines &&
        (lines.maestro ? (
          <LocatorLine key={lines.maestro} syntax="maestro" label={t('inspect:maestro')} line={lines.maestro} />
        ) : (
          <div className="inspect-locator">
            <h4>{t('inspect:maestro')}</h4>
            <p className="muted small" data-testid="inspect-maestro-gap">
              {t(`inspect:maestroGap.${lines.maestroGap ?? 'no-locator'}`)}
            </p>
          </div>
        ))}
    </section>
  );
}

/** A flow step to copy into a flow file, with a Copy button that says what it did. */
function LocatorLine({ syntax, label, line }: { syntax: 'ours' | 'maestro'; label: string; line: string }) {
  const { t } = useWords();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const copy = () => {
    copyText(line).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  };
  return (
    <div className="inspect-locator">
      <h4 id={`inspect-${syntax}-title`}>{label}</h4>
      <pre data-testid={`inspect-locator-${syntax}`} aria-labelledby={`inspect-${syntax}-title`}>
        <code>{line}</code>
      </pre>
      <button type="button" className="button secondary" onClick={copy} aria-label={t('inspect:copyLabel', { syntax: label })} data-testid={`inspect-copy-${syntax}`}>
        {t('inspect:copy')}
      </button>
      {copied && (
        <span className={copied === 'copied' ? 'form-ok small' : 'field-problem'} role="status">
          {' '}
          {t(copied === 'copied' ? 'inspect:copied' : 'inspect:copyFailed')}
        </span>
      )}
    </div>
  );
}
