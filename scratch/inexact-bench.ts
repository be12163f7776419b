import { mayBeInexact } from '../server/json';
import { platformOrder, prng } from '../scripts/bench/orders';
const INEXACT = /(?:^|[:,[])\s*-?(?:[0-9.]{16}|[0-9.]+[eE][+-]?[0-9]{2})/;
const random = prng(3);
const bodies = Array.from({ length: 500 }, (_, i) => JSON.stringify(platformOrder(i, i, random)));
for (const b of bodies) if (mayBeInexact(b) !== INEXACT.test(b)) console.log('DIFF', mayBeInexact(b), INEXACT.test(b));
for (let r = 0; r < 3; r++) {
  let t = performance.now(); let c = 0;
  for (let k = 0; k < 10; k++) for (const b of bodies) c += mayBeInexact(b) ? 1 : 0;
  const a = (performance.now() - t) / 5000;
  t = performance.now();
  for (let k = 0; k < 10; k++) for (const b of bodies) c += INEXACT.test(b) ? 1 : 0;
  const g = (performance.now() - t) / 5000;
  t = performance.now();
  for (let k = 0; k < 10; k++) for (const b of bodies) c += JSON.parse(b) ? 1 : 0;
  const j = (performance.now() - t) / 5000;
  console.log(`loop ${(a * 1000).toFixed(1)} us, regex ${(g * 1000).toFixed(1)} us, JSON.parse ${(j * 1000).toFixed(1)} us, len ${bodies[0]!.length}`, c);
}
