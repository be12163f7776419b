import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, inject } from 'vitest';

// Screens load their code and data asynchronously; on a busy 2-core machine (vitest runs files in
// parallel) the first render of a form screen can take longer than Testing Library's default 1 s
// wait. The assertions are unchanged: they still fail when the element never appears.
configure({ asyncUtilTimeout: 5000 });

// Testing Library unmounts what a test rendered only when `afterEach` is a global (vitest's
// `globals`, off here): without this every render stayed in the document for the rest of its file,
// so `screen` queries searched (and could be satisfied by) earlier tests' screens, and each query
// cost more than the one before (conformance-form.test.tsx: 150 s for 111 forms).
afterEach(() => cleanup());

// The PostgreSQL databases a test file made are dropped once it ends (tests/support/pg-copies.ts).
if (process.env.TEST_DATABASE_URL) afterAll(async () => (await import('./support/pg-copies')).releaseTemplateCopies(inject('pgDropList')));

// UI tests see the whole English catalog, as the admin does once it has loaded (only the landing
// screens' texts are bundled with the app: scripts/english-split.ts).
if (typeof window !== 'undefined') await (await import('../ui/i18n')).loadAllEnglish();
