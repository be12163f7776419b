import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let total = 0;
const selfBy = new Map(), fileBy = new Map(), incl = new Map();
for (const [id, t] of dt) {
  total += t;
  const n = byId.get(id);
  const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  selfBy.set(key, (selfBy.get(key) ?? 0) + t);
  const f = n.callFrame.url.includes('node_modules') ? n.callFrame.url.split('node_modules/')[1].split('/')[0] : n.callFrame.url.split('/').slice(-2).join('/') || n.callFrame.functionName;
  fileBy.set(f, (fileBy.get(f) ?? 0) + t);
  // inclusive per function key (count once per stack)
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const m = byId.get(cur);
    const k = `${m.callFrame.functionName || '(anon)'} ${m.callFrame.url.split('/').slice(-2).join('/')}:${m.callFrame.lineNumber}`;
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + t);
  }
}
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, t]) => `${(t / 1000).toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${n}`).join('\n');
console.log('total', (total / 1000).toFixed(0), 'ms');
console.log('--- self by function'); console.log(top(selfBy, Number(process.argv[3] ?? 40)));
console.log('--- self by file/package'); console.log(top(fileBy, 30));
if (process.argv[4]) { console.log('--- inclusive'); console.log(top(new Map([...incl].filter(([k]) => new RegExp(process.argv[4]).test(k))), 60)); }
