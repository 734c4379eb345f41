#!/usr/bin/env node
// `npm start`'s build step: compiles the service and bundles the pages only when a source,
// build script or build setting changed since the last build made here, so an unchanged
// checkout starts at once. The decision is a content hash (not mtimes, which a checkout or
// copy rewrites) kept in dist/.build-stamp beside what it describes. `npm run build` (and so
// `npm install`'s prepare) runs it with --always: it builds whatever the stamp says and leaves
// the stamp, so the first `npm start` after an install starts at once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const STAMP = join(root, 'dist', '.build-stamp');
/** Everything the build reads besides src/: its scripts, settings and the locked dependencies. */
const BUILD_INPUTS = [
  'scripts/build-web.mjs',
  'scripts/build-server.mjs',
  'scripts/build-if-changed.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
/** What a finished build leaves behind; either missing means building whatever the stamp says. */
const OUTPUTS = [
  'dist/main.js',
  'dist/server/account-center.mjs',
  'dist/web/manifest.json',
];

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** One hash over the names and contents of every build input, in a fixed order. */
export function sourceHash() {
  const files = [
    ...filesUnder(join(root, 'src')),
    ...BUILD_INPUTS.map((f) => join(root, f)).filter((f) => existsSync(f)),
  ]
    .map((f) => relative(root, f).split('\\').join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const name of files) {
    const body = readFileSync(join(root, name));
    hash.update(`${name}\0${body.length}\0`).update(body);
  }
  return hash.digest('hex');
}

/** Builds when needed, or always; answers whether it did. */
export async function buildIfChanged({ always = false } = {}) {
  // Hashed before building: a file saved during the build makes the next start build again.
  const hash = sourceHash();
  const built = OUTPUTS.every((f) => existsSync(join(root, f)));
  if (
    !always &&
    built &&
    existsSync(STAMP) &&
    readFileSync(STAMP, 'utf8').trim() === hash
  )
    return false;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root],
    { stdio: 'inherit' },
  );
  const [{ buildWeb }, { buildServer }] = await Promise.all([
    import('./build-web.mjs'),
    import('./build-server.mjs'),
  ]);
  await buildWeb();
  await buildServer();
  writeFileSync(STAMP, `${hash}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const always = process.argv.includes('--always');
    console.log(
      (await buildIfChanged({ always }))
        ? 'build: done'
        : 'build: sources unchanged, nothing to do',
    );
  } catch (err) {
    // A failed tsc has already printed what is wrong; anything else has not.
    if (typeof err?.status !== 'number') console.error(err);
    process.exitCode = 1;
  }
}
