import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { browserSessionStorage, captureSessionLink } from './features/customer-portal/session/session-token';
import './styles.css';

const cleaned = captureSessionLink(window.location, browserSessionStorage());
if (cleaned) window.history.replaceState(window.history.state, '', cleaned);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
