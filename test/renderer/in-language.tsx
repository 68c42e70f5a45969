import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18nextFor } from '../../src/shared/i18n/translate';
import { withFakeBridge } from './fake-bridge';

/** A component rendered in a window of `language`, with a fake bridge. */
export const inLanguage = (language: 'en' | 'zh-CN', element: React.ReactElement) => {
  const Bridge = withFakeBridge();
  return render(
    <I18nextProvider i18n={i18nextFor(language)}>
      <Bridge>{element}</Bridge>
    </I18nextProvider>,
  );
};
