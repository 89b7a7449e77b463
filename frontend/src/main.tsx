// First, so the first screen's chunks are requested before the rest of the entry runs (see firstScreen.ts).
import { firstScreen } from './app/firstScreen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './app/App';
import './index.css';
import { startTheme } from './lib/theme';

// Before the first render, so the first screen is drawn in the chosen scheme.
startTheme();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Router>
      <App firstScreen={firstScreen} />
    </Router>
  </StrictMode>,
);
