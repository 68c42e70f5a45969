import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectBridge } from './bridge';
import { BridgeContext } from './bridge-context';
import { LanguageProvider } from './i18n/LanguageProvider';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <BridgeContext.Provider value={connectBridge()}>
      <LanguageProvider>
        <App />
      </LanguageProvider>
    </BridgeContext.Provider>
  </StrictMode>,
);
