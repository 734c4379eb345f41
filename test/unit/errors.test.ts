import { describe, expect, it } from 'vitest';
import { badParam, fail } from '../../src/errors/index.js';
import { toFailure } from '../../src/platform/http/error-replies.js';

describe('toFailure', () => {
  it('keeps the status and msg of an AppError, with its extra keys', () => {
    expect(toFailure(fail('banned'))).toEqual({
      status: 403,
      body: { ok: false, msg: '账号已被封禁' },
    });
    expect(
      toFailure(fail('devicePending', { error: 'authorization_pending' })),
    ).toEqual({
      status: 400,
      body: { ok: false, msg: '等待用户确认', error: 'authorization_pending' },
    });
    expect(badParam('username').msg).toBe('参数错误：username');
  });

  it('hides unexpected faults behind a generic 500', () => {
    const sqlFault = Object.assign(
      new Error(
        'SQLITE_ERROR: no such column: password_hash in SELECT * FROM users',
      ),
      { code: 'SQLITE_ERROR' },
    );
    for (const err of [
      new Error('boom'),
      new TypeError("Cannot read properties of undefined (reading 'x')"),
      sqlFault,
    ]) {
      expect(toFailure(err)).toEqual({
        status: 500,
        body: { ok: false, msg: '服务器内部错误' },
      });
    }
  });

  it('maps Fastify body failures to the contract', () => {
    const fastify = (code: string, statusCode: number) =>
      Object.assign(new Error(code), { code, statusCode });
    expect(toFailure(fastify('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415))).toEqual({
      status: 415,
      body: { ok: false, msg: '请求体必须是 JSON' },
    });
    expect(toFailure(fastify('FST_ERR_CTP_BODY_TOO_LARGE', 413))).toEqual({
      status: 413,
      body: { ok: false, msg: '请求体过大' },
    });
    expect(toFailure(fastify('FST_ERR_CTP_INVALID_JSON_BODY', 400))).toEqual({
      status: 400,
      body: { ok: false, msg: '请求体不是合法的 JSON' },
    });
    expect(toFailure(fastify('FST_ERR_CTP_EMPTY_JSON_BODY', 400))).toEqual({
      status: 400,
      body: { ok: false, msg: '请求体不是合法的 JSON' },
    });
    const validation = Object.assign(new Error('body/email must be string'), {
      statusCode: 400,
      validation: [
        {
          instancePath: '/email',
          keyword: 'type',
          params: {},
          message: 'must be string',
        },
      ],
    });
    expect(toFailure(validation)).toEqual({
      status: 400,
      body: { ok: false, msg: '参数错误：email' },
    });
    const missing = Object.assign(new Error('x'), {
      statusCode: 400,
      validation: [
        {
          instancePath: '',
          keyword: 'required',
          params: { missingProperty: 'code' },
        },
      ],
    });
    expect(toFailure(missing)).toEqual({
      status: 400,
      body: { ok: false, msg: '参数错误：code' },
    });
    const nested = Object.assign(new Error('x'), {
      statusCode: 400,
      validation: [
        { instancePath: '/redirect_uris/3', keyword: 'type', params: {} },
      ],
    });
    expect(toFailure(nested)).toEqual({
      status: 400,
      body: { ok: false, msg: '参数错误：redirect_uris' },
    });
  });
});
