#!/usr/bin/env node
// Bundles the compiled service (dist/, from tsc) into dist/server: one entry and a few chunks,
// the modules of each command in chunks of their own. A start then opens a handful of files
// instead of several hundred modules' worth (docs/performance.md, "Start-up"). Packages that
// find files of their own at run time, and native ones, stay outside and load from node_modules.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const EXTERNAL = [
  'better-sqlite3',
  '@node-rs/argon2',
  'pg-native',
  'piscina',
  'pino',
  'thread-stream',
  'pino-pretty',
  'ioredis',
  '@fastify/swagger-ui',
];

export async function buildServer() {
  const outdir = join(root, 'dist', 'server');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { 'account-center': 'dist/entry.js' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    external: EXTERNAL,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // Bundled CommonJS packages call require(); in an ES module it has to be made.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await buildServer();
