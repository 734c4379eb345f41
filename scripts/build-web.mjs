#!/usr/bin/env node
// Bundles the browser pages (src/web) into dist/web with content-hashed names and a manifest
// that the page routes read, so assets can be cached forever and every change busts the cache.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'web');

export async function buildWeb() {
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    // The CAPTCHA widget is an entry of its own: only pages that ask for a CAPTCHA load it.
    entryPoints: {
      app: 'src/web/main.ts',
      style: 'src/web/styles.css',
      captcha: 'src/web/captcha-widget.ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    entryNames: '[name].[hash]',
    outdir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const manifest = {};
  for (const file of Object.keys(result.metafile.outputs)) {
    const name = basename(file);
    if (name.startsWith('app.') && name.endsWith('.js')) manifest.js = name;
    if (name.startsWith('style.') && name.endsWith('.css')) manifest.css = name;
    if (name.startsWith('captcha.') && name.endsWith('.js'))
      manifest.captcha = name;
    if (name.startsWith('captcha.') && name.endsWith('.css'))
      manifest.captchaCss = name;
  }
  manifest.captchaWorker = copyAltchaWorker();
  if (
    !manifest.js ||
    !manifest.css ||
    !manifest.captcha ||
    !manifest.captchaCss
  )
    throw new Error(`web build produced ${readdirSync(outdir).join(', ')}`);
  // A running service may be reading the manifest: swap it in whole, and keep superseded
  // bundles for an hour so a page already served can still fetch its assets.
  const tmp = join(outdir, `manifest.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(tmp, join(outdir, 'manifest.json'));
  const keep = new Set([...Object.values(manifest), 'manifest.json']);
  for (const name of readdirSync(outdir)) {
    const path = join(outdir, name);
    if (!keep.has(name) && Date.now() - statSync(path).mtimeMs > 3600_000)
      rmSync(path, { recursive: true, force: true });
  }
  return manifest;
}

/**
 * The widget solves in a Web Worker loaded from its own address (the CSP allows only 'self'
 * scripts): altcha's worker file, copied under a content-hashed name.
 */
function copyAltchaWorker() {
  const source = createRequire(import.meta.url).resolve('altcha/worker');
  const hash = createHash('sha256')
    .update(readFileSync(source))
    .digest('hex')
    .slice(0, 8)
    .toUpperCase();
  const name = `altcha-worker.${hash}.js`;
  copyFileSync(source, join(outdir, name));
  return name;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildWeb();
  console.log(`web bundle: dist/web/${manifest.js}, dist/web/${manifest.css}`);
}
