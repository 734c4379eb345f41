import { execFile } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm start`'s build step (scripts/build-if-changed.mjs), run on a copy of the project so the
 * builds it makes never touch the dist/ other tests are using.
 */
const ROOT = join(import.meta.dirname, '..');

describe('npm start builds only when the sources changed', () => {
  let dir: string;

  // Not execFileSync: a build blocks the test worker's event loop long enough for the runner's
  // calls into it to time out.
  const buildStep = async () =>
    (
      await promisify(execFile)(
        process.execPath,
        ['scripts/build-if-changed.mjs'],
        { cwd: dir, encoding: 'utf8' },
      )
    ).stdout;
  const mtime = (file: string) => statSync(join(dir, file)).mtimeMs;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ac-build-'));
    for (const entry of [
      'src',
      'scripts',
      'tsconfig.json',
      'package.json',
      'package-lock.json',
    ])
      cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    symlinkSync(
      realpathSync(join(ROOT, 'node_modules')),
      join(dir, 'node_modules'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds the first time, then does nothing until a source changes', async () => {
    expect(await buildStep()).toContain('build: done');
    const manifest = readFileSync(join(dir, 'dist/web/manifest.json'), 'utf8');
    const compiled = mtime('dist/main.js');

    const started = performance.now();
    expect(await buildStep()).toContain('nothing to do');
    // Nothing was rewritten, and no compiler ran (a tsc run alone takes seconds).
    expect(performance.now() - started).toBeLessThan(3000);
    expect(mtime('dist/main.js')).toBe(compiled);
    expect(readFileSync(join(dir, 'dist/web/manifest.json'), 'utf8')).toBe(
      manifest,
    );

    appendFileSync(
      join(dir, 'src/web/styles.css'),
      '\n.build-if-changed-test { color: red; }\n',
    );
    expect(await buildStep()).toContain('build: done');
    expect(readFileSync(join(dir, 'dist/web/manifest.json'), 'utf8')).not.toBe(
      manifest,
    );
    expect(await buildStep()).toContain('nothing to do');
  }, 180_000);

  it('npm run build (the build npm install runs) leaves the stamp, so the next start builds nothing', async () => {
    const build = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      .scripts.build as string;
    expect(build).toMatch(/^node scripts\/build-if-changed\.mjs --always$/);
    const always = async () =>
      (
        await promisify(execFile)(
          process.execPath,
          ['scripts/build-if-changed.mjs', '--always'],
          { cwd: dir, encoding: 'utf8' },
        )
      ).stdout;
    expect(await always()).toContain('build: done');
    expect(await buildStep()).toContain('nothing to do');
  }, 180_000);
});
