import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// Screens load their code and data asynchronously; on a busy 2-core machine (vitest runs files in
// parallel) the first render of a form screen can take longer than Testing Library's default 1 s
// wait. The assertions are unchanged: they still fail when the element never appears.
configure({ asyncUtilTimeout: 5000 });

// UI tests see the whole English catalog, as the admin does once it has loaded (only the landing
// screens' texts are bundled with the app: scripts/english-split.ts).
if (typeof window !== 'undefined') await (await import('../ui/i18n')).loadAllEnglish();
