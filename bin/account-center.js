#!/usr/bin/env node
// Runs the compiled CLI; `npm install` builds it (prepare), `npm start` rebuilds when sources changed.
//
// CommonJS on purpose (bin/package.json): libuv sizes its thread pool once, when the first job
// reaches it, from UV_THREADPOOL_SIZE. Node's ESM loader reads files through the pool before an
// ES module's first line runs, so only a CommonJS entry can still choose the size. The pool
// signs every OIDC token; its default of 4 threads on a 2-core machine competes with the event
// loop, while one thread per core signs on every core (docs/performance.md, "Signing algorithm").
// An operator's own UV_THREADPOOL_SIZE always wins.
'use strict';
const { existsSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, availableParallelism()));

// The bundled service (scripts/build-server.mjs); its entry checks the configuration before it
// loads the rest (src/entry.ts).
const entry = join(__dirname, '..', 'dist', 'server', 'account-center.mjs');
if (!existsSync(entry)) {
  process.stderr.write('account-center: not built yet; run `npm run build` in the project folder\n');
  process.exit(1);
}
// A rejection is left unhandled, so it ends the process with its stack and exit code 1, as a
// top-level await did.
void import(pathToFileURL(entry).href).then(({ start }) => start(process.argv.slice(2)));
