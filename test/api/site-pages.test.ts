import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};
const NOT_FOUND = [404, { ok: false, msg: '接口不存在' }];

async function pageHeaders(): Promise<Record<string, unknown>> {
  const login = await t.get('/login', undefined, BROWSER);
  expect(login.statusCode).toBe(200);
  return login.headers;
}

describe('unknown addresses', () => {
  it('a browser asking for a page that does not exist gets a 404 page in the site layout', async () => {
    const page = await pageHeaders();
    for (const url of ['/nope', '/account/extra', '/docs-typo?x=1', '/Login']) {
      const res = await t.get(url, undefined, BROWSER);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<title>页面不存在 - 账号中心</title>');
      expect(res.body).toContain('data-page="not_found"');
      expect(res.body).toContain('<link rel="icon" href="/favicon.svg"');
      for (const header of [
        'content-security-policy',
        'x-frame-options',
        'x-content-type-options',
        'referrer-policy',
        'cross-origin-opener-policy',
        'cache-control',
      ]) {
        expect(res.headers[header], header).toBe(page[header]);
      }
    }
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/nope',
      headers: BROWSER,
    });
    expect([head.statusCode, head.headers['content-type']]).toEqual([
      404,
      'text/html; charset=utf-8',
    ]);
  });

  it('API paths, the standard endpoints and clients not asking for HTML keep the JSON 404', async () => {
    for (const url of [
      '/api/v1/auth/nope',
      '/api/nope',
      '/oauth/nope',
      '/.well-known/nope',
      '/assets/app.nope.js',
    ]) {
      expect(failure(await t.get(url, undefined, BROWSER)), url).toEqual(
        NOT_FOUND,
      );
    }
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await t.get(
        '/nope',
        undefined,
        accept === undefined ? {} : { accept },
      );
      expect(failure(res), String(accept)).toEqual(NOT_FOUND);
    }
    // Only reading a page gets one: any other method on an unknown address is the API's 404.
    const post = await t.app.inject({
      method: 'POST',
      url: '/nope',
      headers: { ...BROWSER, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(failure(post)).toEqual(NOT_FOUND);
  });

  it('a bad query on an unknown address is still a field error, not a page', async () => {
    const res = await t.get('/nope?x=%00', undefined, BROWSER);
    expect(failure(res)).toEqual([400, { ok: false, msg: '参数错误：x' }]);
  });
});

describe('site icon', () => {
  it('serves /favicon.svg and a 16×16 + 32×32 /favicon.ico under the page headers', async () => {
    const page = await pageHeaders();
    const svg = await t.get('/favicon.svg');
    expect([svg.statusCode, svg.headers['content-type']]).toEqual([
      200,
      'image/svg+xml',
    ]);
    expect(svg.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.body).toContain('#2563eb');

    const ico = await t.get('/favicon.ico');
    expect([ico.statusCode, ico.headers['content-type']]).toEqual([
      200,
      'image/x-icon',
    ]);
    const bytes = ico.rawPayload;
    // ICONDIR: reserved 0, type 1 (icon), two images; then each entry's size, bytes and offset.
    expect([
      bytes.readUInt16LE(0),
      bytes.readUInt16LE(2),
      bytes.readUInt16LE(4),
    ]).toEqual([0, 1, 2]);
    const entries = [0, 1].map((i) => ({
      size: bytes[6 + 16 * i],
      length: bytes.readUInt32LE(14 + 16 * i),
      offset: bytes.readUInt32LE(18 + 16 * i),
    }));
    expect(entries.map((e) => e.size)).toEqual([16, 32]);
    for (const e of entries) {
      expect(e.offset + e.length).toBeLessThanOrEqual(bytes.length);
      // A 32-bit BITMAPINFOHEADER of the stated size, with some opaque pixels (the shield).
      expect([
        bytes.readUInt32LE(e.offset),
        bytes.readInt32LE(e.offset + 4),
        bytes.readUInt16LE(e.offset + 14),
      ]).toEqual([40, e.size, 32]);
      const pixels = bytes.subarray(
        e.offset + 40,
        e.offset + 40 + e.size! * e.size! * 4,
      );
      const opaque = [...Array(e.size! * e.size!).keys()].filter(
        (p) => pixels[p * 4 + 3] === 255,
      ).length;
      expect(opaque).toBeGreaterThan((e.size! * e.size!) / 4);
    }
    for (const res of [svg, ico]) {
      expect(res.headers['content-security-policy']).toBe(
        page['content-security-policy'],
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
