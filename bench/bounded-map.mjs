// Cost of one insert into a full bounded map: a Map that deletes `keys().next()` when full
// (what the caches did) against platform/cache/bounded-map.ts. Run: npm run build && node bench/bounded-map.mjs
import { BoundedMap } from '../dist/platform/cache/bounded-map.js';

function fifoMap(max) {
  const map = new Map();
  return (key, value) => {
    if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value);
    map.set(key, value);
  };
}

function boundedMap(max) {
  const map = new BoundedMap(max);
  return (key, value) => map.set(key, value);
}

/** µs per insert of a new key once the map is full (keys shaped like session ids). */
function measure(make, max, inserts = 200_000) {
  const set = make(max);
  let i = 0;
  for (; i < max * 2; i++) set(`session-${i}`, i);
  const started = process.hrtime.bigint();
  for (const end = i + inserts; i < end; i++) set(`session-${i}`, i);
  return Number(process.hrtime.bigint() - started) / inserts / 1000;
}

const rows = [];
for (const max of [1_000, 10_000, 100_000]) {
  rows.push({ entries: max, 'Map + keys().next() µs': +measure(fifoMap, max).toFixed(2), 'BoundedMap µs': +measure(boundedMap, max).toFixed(2) });
}
console.table(rows);
