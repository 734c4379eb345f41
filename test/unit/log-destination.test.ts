import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchedLineWriter } from '../../src/platform/logging/log-destination.js';

const opened: number[] = [];
function fileWriter() {
  const path = join(mkdtempSync(join(tmpdir(), 'log-destination-')), 'out.log');
  const fd = openSync(path, 'a');
  opened.push(fd);
  return { writer: new BatchedLineWriter(fd), read: () => readFileSync(path, 'utf8') };
}

afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

describe('BatchedLineWriter', () => {
  it('writes every line once, in order, across many chunks, wide characters included', async () => {
    const { writer, read } = fileWriter();
    const lines = Array.from({ length: 5000 }, (_, i) => `{"n":${i},"msg":"${i % 7 === 0 ? '用户不存在 ✓' : 'request'}"}\n`);
    for (const line of lines) writer.write(line);
    await vi.waitFor(() => expect(read()).toBe(lines.join('')));
  });

  it('takes a line longer than its buffer', async () => {
    const { writer, read } = fileWriter();
    const long = `${'界'.repeat(40_000)}\n`;
    writer.write('first\n');
    writer.write(long);
    writer.write('last\n');
    await vi.waitFor(() => expect(read()).toBe(`first\n${long}last\n`));
  });

  it('writes what is pending at once when asked to flush synchronously', () => {
    const { writer, read } = fileWriter();
    writer.write('one\n');
    writer.write('two\n');
    writer.flushSync();
    expect(read()).toBe('one\ntwo\n');
  });
});
