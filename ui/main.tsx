import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { primeLandingScreen } from './api/landing';
import { createAppRouter, loadScreenRoutes } from './app';
import { loadAllEnglish, showLanguage } from './i18n';
import { initialLanguage } from './state/language';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('main: #root element missing from index.html');

/**
 * Resolves once the router has loaded the first screen's code (a lazy route; the landing screens'
 * chunks are already downloading beside the app's, vite.config.ts `preloadLandingScreens`), or
 * failed to: React then draws the screen in its first render instead of drawing the loading skeleton
 * first and the screen over it, one render and one layout fewer before the screen's content (issue
 * 12 "Speed", LCP of `/programs` on slow 4G with 4× CPU).
 */
function initialized(router: ReturnType<typeof createAppRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

// A merchant who reads the admin in French gets the French catalog before the first paint, not
// English first (only English is bundled; other languages are fetched on demand, ui/i18n). The
// landing screen's first answers, already fetched by the preload script, are read in too
// (ui/api/landing.ts), so the screen is drawn once, with its content.
const router = createAppRouter();
void Promise.all([showLanguage(initialLanguage(null)), initialized(router), primeLandingScreen(window.location)]).then(() => {
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  // The rest of English (only the landing screens' texts are in the entry), once the first screen
  // is drawn; tried again a few times if the network drops it (other screens also ask on opening).
  const fetchRest = (attempt: number): void => {
    loadAllEnglish().catch(() => {
      if (attempt < 5) setTimeout(() => fetchRest(attempt + 1), 2000 * attempt);
    });
  };
  setTimeout(() => {
    fetchRest(1);
    // The other screens' routes (the app starts with the landing ones), so the first navigation
    // away does not wait for them; a failure here is retried by that navigation.
    loadScreenRoutes().catch(() => undefined);
  }, 0);
});
