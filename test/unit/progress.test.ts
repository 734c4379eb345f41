import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/cli/progress.js';

function sink(isTTY: boolean) {
  const out: string[] = [];
  return { out, isTTY, columns: 100, write: (t: string) => out.push(t) };
}

describe('import progress', () => {
  it('on a terminal: one redrawn bar with percentage, rate and ETA', () => {
    const s = sink(true);
    const p = new Progress(s, 'import', 1000);
    p.update(250, 250, true);
    p.update(500, 500, true);
    p.finish();
    expect(s.out[0]).toMatch(
      /^\rimport \[#+\.+\] {2}25\.0% {2}250 rows {2}[\d,]+ rows\/s {2}ETA \d\d:\d\d\x1b\[K$/,
    );
    expect(s.out[1]).toMatch(/^\rimport \[#+\.+\] {2}50\.0% {2}500 rows/);
    expect(s.out.at(-1)).toBe('\n');
  });

  it('elsewhere: plain lines, at most every few seconds unless forced', () => {
    const s = sink(false);
    const p = new Progress(s, 'import', 2000);
    p.update(10, 10);
    expect(s.out).toEqual([]);
    p.update(2000, 2000, true);
    p.finish();
    expect(s.out).toHaveLength(1);
    expect(s.out[0]).toMatch(
      /^import: 100\.0% 2,000 rows {2}[\d,]+ rows\/s {2}ETA 00:00\n$/,
    );
  });
});
