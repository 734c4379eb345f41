#!/usr/bin/env node
// Runs the compiled CLI; `npm install` builds it (prepare), `npm start` rebuilds when sources changed.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('account-center: not built yet; run `npm run build` in the project folder\n');
  process.exit(1);
}
const { main } = await import(entry.href);
await main(process.argv.slice(2));
