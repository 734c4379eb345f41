// Summarises a .cpuprofile (node --cpu-prof): self time by function and by package/file.
// Run: node bench/profile-summary.mjs <file.cpuprofile> [top]   (env: BENCH_WINDOW, BENCH_INCLUSIVE)
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 30);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
// BENCH_WINDOW=from..to (µs of the monotonic clock, as `npm run bench -- --cpu-prof` logs for each
// timed run): only the samples taken in that window, so set-up work stays out of the shares.
const [from, to] = (process.env.BENCH_WINDOW ?? '0..Infinity')
  .split('..')
  .map(Number);
let at = prof.startTime;
for (let i = 0; i < prof.samples.length; i++) {
  const dt = prof.timeDeltas[i] ?? 0;
  at += dt;
  if (at < from || at > to) continue;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
}
// Shares are of the busy time: idle samples are left out.
const idleIds = new Set(
  prof.nodes
    .filter((n) => n.callFrame.functionName === '(idle)')
    .map((n) => n.id),
);
for (const id of idleIds) self.delete(id);
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fnTime = new Map();
const fileTime = new Map();
for (const [id, t] of self) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const where = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '')
    .replace(/.*\/dist\//, 'dist/');
  const fnKey = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  fnTime.set(fnKey, (fnTime.get(fnKey) ?? 0) + t);
  const pkg = where.startsWith('dist/')
    ? where
    : where
        .split('/')
        .slice(0, where.startsWith('@') ? 2 : 1)
        .join('/') || functionName;
  fileTime.set(pkg, (fileTime.get(pkg) ?? 0) + t);
}
const show = (m) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, t]) => ({
      '%': +((100 * t) / total).toFixed(1),
      what: k.slice(0, 110),
    }));
console.log(`busy ${(total / 1e6).toFixed(1)} s sampled`);
console.table(show(fnTime));
console.table(show(fileTime));

// Inclusive time of named functions (BENCH_INCLUSIVE=name,name): samples with it on the stack.
if (process.env.BENCH_INCLUSIVE) {
  const parent = new Map();
  for (const n of prof.nodes)
    for (const c of n.children ?? []) parent.set(c, n.id);
  const names = process.env.BENCH_INCLUSIVE.split(',');
  const incl = new Map(names.map((n) => [n, 0]));
  for (const [id, t] of self) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const fn = byId.get(cur).callFrame.functionName;
      if (incl.has(fn) && !seen.has(fn)) {
        seen.add(fn);
        incl.set(fn, incl.get(fn) + t);
      }
    }
  }
  console.table(
    [...incl].map(([fn, t]) => ({
      function: fn,
      'inclusive %': +((100 * t) / total).toFixed(1),
    })),
  );
}
