import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  logDestination,
  type LogDestination,
} from '../../src/platform/logging/log.js';
import { waitFor } from '../helpers/wait.js';

const opened: LogDestination[] = [];
function fileDestination() {
  const path = join(mkdtempSync(join(tmpdir(), 'log-destination-')), 'out.log');
  const destination = logDestination(openSync(path, 'a'));
  opened.push(destination);
  return { destination, read: () => readFileSync(path, 'utf8') };
}

// The destination owns its descriptor: ending it writes what is pending and closes it.
afterEach(async () => {
  await Promise.all(
    opened.splice(0).map(
      (destination) =>
        new Promise((resolve) => {
          destination.once('close', resolve);
          destination.end();
        }),
    ),
  );
});

describe('log destination', () => {
  it('writes every line once, in order, across many batches, wide characters included', async () => {
    const { destination, read } = fileDestination();
    const lines = Array.from(
      { length: 5000 },
      (_, i) =>
        `{"n":${i},"msg":"${i % 7 === 0 ? '用户不存在 ✓' : 'request'}"}\n`,
    );
    for (const line of lines) destination.write(line);
    await waitFor(
      'every line written',
      10_000,
      () => read() === lines.join(''),
    );
  });

  it('takes a line longer than a batch', async () => {
    const { destination, read } = fileDestination();
    const long = `${'界'.repeat(40_000)}\n`;
    destination.write('first\n');
    destination.write(long);
    destination.write('last\n');
    await waitFor(
      'the long line written',
      10_000,
      () => read() === `first\n${long}last\n`,
    );
  });

  it('writes a lone line soon, though no batch fills up behind it', async () => {
    const { destination, read } = fileDestination();
    destination.write('alone\n');
    await waitFor('the lone line written', 10_000, () => read() === 'alone\n');
  });

  it('writes what is pending at once when asked to flush synchronously', () => {
    const { destination, read } = fileDestination();
    destination.write('one\n');
    destination.write('two\n');
    destination.flushSync();
    expect(read()).toBe('one\ntwo\n');
  });

  it('a process that exits at once still writes every line it logged to stdout', () => {
    const log = fileURLToPath(
      new URL('../../dist/platform/logging/log.js', import.meta.url),
    );
    const script = `import { createLogger } from ${JSON.stringify(log)};
      const logger = createLogger('info');
      for (let i = 0; i < 300; i++) logger.info({ n: i }, 'line');
      process.exit(0);`;
    const child = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(child.status).toBe(0);
    const lines = child.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { n: number; msg: string });
    expect(lines.map((l) => l.n)).toEqual(
      Array.from({ length: 300 }, (_, i) => i),
    );
    expect(lines.every((l) => l.msg === 'line')).toBe(true);
  });
});
