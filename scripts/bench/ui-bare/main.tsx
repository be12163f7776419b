/**
 * The bare baseline of `npm run bench:ui` (scripts/bench-ui.ts): the least a React page can be — React
 * and ReactDOM, a heading, a paragraph and one controlled text field — built by the same vite and
 * served by the same server, so its figures are the floor the admin's are held beside.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Bare() {
  const [name, setName] = useState('');
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Programs</h1>
      <p>Customers earn 10 points for every $100 spent.</p>
      <label>
        Program name <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
    </main>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('bare: #root element missing');
createRoot(container).render(
  <StrictMode>
    <Bare />
  </StrictMode>,
);
