import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const re = new RegExp(process.argv[3]);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const key = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
const out = new Map();
for (const [id, t] of dt) {
  let cur = id; let n = byId.get(cur);
  if (!re.test(n.callFrame.url + ' ' + n.callFrame.functionName)) continue;
  // walk up to first frame not matching
  while (cur !== undefined && re.test(byId.get(cur).callFrame.url + ' ' + byId.get(cur).callFrame.functionName)) cur = parent.get(cur);
  const chain = []; let c = cur;
  for (let i = 0; i < Number(process.argv[4] ?? 3) && c !== undefined; i++) { chain.push(key(byId.get(c))); c = parent.get(c); }
  const k = chain.join(' < ');
  out.set(k, (out.get(k) ?? 0) + t);
}
for (const [k, t] of [...out].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((t / 1000).toFixed(0).padStart(6), 'ms', k);
