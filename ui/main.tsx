import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './app';
import { showLanguage } from './i18n';
import { initialLanguage } from './state/language';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('main: #root element missing from index.html');

// A merchant who reads the admin in French gets the French catalog before the first paint, not
// English first (only English is bundled; other languages are fetched on demand, ui/i18n).
void showLanguage(initialLanguage(null)).then(() => {
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={createAppRouter()} />
    </StrictMode>,
  );
});
