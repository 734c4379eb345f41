// How long the ALTCHA widget takes to solve a challenge in Chromium with the CPU slowed down
// 4× (CDP Emulation.setCPUThrottlingRate), as on a phone-class CPU: for each CAPTCHA_COST, the
// time for a challenge whose hidden number sits at half the cost (the average case) and at the
// cost itself (the worst case). The widget solves in one worker here (`workers=1`): a phone
// with more cores splits the range and finishes sooner, so these are upper bounds.
// Prints a Markdown table for docs/abuse.md.
//   node bench/captcha-solve-times.mjs [cost…]      CHROMIUM_PATH, CPU_THROTTLE (default 4), ROUNDS (default 3)
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { createChallenge } from 'altcha-lib';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const FILES = {
  '/altcha.js': [require.resolve('altcha/external'), 'text/javascript'],
  '/altcha.css': [require.resolve('altcha/altcha.css'), 'text/css'],
  '/worker.js': [require.resolve('altcha/worker'), 'text/javascript'],
};
const PAGE = `<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="/altcha.css">
<script type="module" src="/altcha.js"></script><body><div id="box"></div></body>`;
const costs = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const COSTS = costs.length
  ? costs
  : [20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];
const THROTTLE = Number(process.env.CPU_THROTTLE ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const server = createServer((req, res) => {
  const file = FILES[req.url];
  if (file)
    return res
      .writeHead(200, { 'content-type': file[1] })
      .end(readFileSync(file[0]));
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
await page.goto(base);
await page.waitForFunction(
  () => customElements.get('altcha-widget') !== undefined,
);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });

/** Milliseconds from the widget's start to `verified`, for a challenge hiding `number`. */
async function solveMs(maxnumber, number) {
  const challenge = await createChallenge({
    hmacKey: 'bench',
    maxnumber,
    number,
  });
  return page.evaluate(
    (json) =>
      new Promise((resolve, reject) => {
        const box = document.getElementById('box');
        box.replaceChildren();
        const widget = document.createElement('altcha-widget');
        let started = 0;
        widget.addEventListener('statechange', (ev) => {
          if (ev.detail.state === 'verifying') started = performance.now();
          if (ev.detail.state === 'verified')
            resolve(performance.now() - started);
          if (ev.detail.state === 'error') reject(new Error('widget error'));
        });
        widget.setAttribute('challengejson', json);
        widget.setAttribute('workerurl', '/worker.js');
        widget.setAttribute('workers', '1');
        widget.setAttribute('auto', 'onload');
        box.append(widget);
      }),
    JSON.stringify(challenge),
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const cores = await page.evaluate(() => navigator.hardwareConcurrency);
console.log(
  `Chromium ${browser.version()}, CPU throttled ${THROTTLE}×, one worker (navigator.hardwareConcurrency ${cores}, host ${availableParallelism()} cores), median of ${ROUNDS}\n`,
);
console.log(
  '| CAPTCHA_COST | average (number = cost/2) | worst (number = cost) |',
);
console.log('|---:|---:|---:|');
await solveMs(10_000, 5_000); // warm-up: worker start and JIT
for (const cost of COSTS) {
  const half = [];
  const full = [];
  for (let i = 0; i < ROUNDS; i++) {
    half.push(await solveMs(cost, Math.floor(cost / 2)));
    full.push(await solveMs(cost, cost));
  }
  console.log(
    `| ${cost.toLocaleString('en')} | ${seconds(median(half))} | ${seconds(median(full))} |`,
  );
}
await browser.close();
server.close();
