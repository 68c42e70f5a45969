import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectBridge } from './bridge';
import { BridgeContext } from './bridge-context';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <BridgeContext.Provider value={connectBridge()}>
      <App />
    </BridgeContext.Provider>
  </StrictMode>,
);
