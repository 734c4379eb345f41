import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { sendAtTurnEnd, type SendContinuation } from '../../src/platform/http/turn-end-send.js';

/** Resolves after the callbacks already queued with setImmediate have run. */
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));
const connection = () => ({ destroy: vi.fn() });

describe('sendAtTurnEnd', () => {
  it('hands the answers of a turn over together at its end, in the order they were ready', async () => {
    const sent: unknown[] = [];
    const continuation: SendContinuation = (err, payload) => sent.push(err ?? payload);
    sendAtTurnEnd(continuation, 'first', connection());
    sendAtTurnEnd(continuation, 'second', connection());
    sendAtTurnEnd(continuation, 'third', connection());
    expect(sent).toEqual([]);
    await turnEnded();
    expect(sent).toEqual(['first', 'second', 'third']);
  });

  it('sends a throw while writing down the error path, closes the connection if that throws too, and sends the rest', async () => {
    const errors: unknown[] = [];
    const failsOnce: SendContinuation = (err) => {
      if (err === null) throw new Error('bad header');
      errors.push(err.message);
    };
    const alwaysFails: SendContinuation = () => {
      throw new Error('socket gone');
    };
    const sent: unknown[] = [];
    const first = connection();
    const second = connection();
    sendAtTurnEnd(failsOnce, 'a', first);
    sendAtTurnEnd(alwaysFails, 'b', second);
    sendAtTurnEnd((_err, payload) => sent.push(payload), 'c', connection());
    await turnEnded();
    expect(errors).toEqual(['bad header']);
    expect(first.destroy).not.toHaveBeenCalled();
    expect(second.destroy).toHaveBeenCalledOnce();
    expect(sent).toEqual(['c']);
  });

  it('leaves a real server answering when writing an answer throws', async () => {
    const app = Fastify();
    app.addHook('onSend', (_request, reply, payload, done) => sendAtTurnEnd(done, payload, reply.raw));
    app.get('/bad-header', (_request, reply) => {
      void reply.header('x-broken', 'a\nb');
      return { ok: true };
    });
    app.get('/fine', () => ({ ok: true }));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const bad = await fetch(`${base}/bad-header`);
      expect(bad.status).toBe(500);
      const fine = await fetch(`${base}/fine`);
      expect(fine.status).toBe(200);
      expect(await fine.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
