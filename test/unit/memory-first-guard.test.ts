import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { memoryFirstGuard } from '../../src/platform/http/memory-first-guard.js';

type Outcome = { err: Error | undefined };

/** Runs the guard once and reports whether it finished before returning (no promise involved). */
function run(guard: ReturnType<typeof memoryFirstGuard>, request: FastifyRequest) {
  let outcome: Outcome | undefined;
  let finish!: (o: Outcome) => void;
  const finished = new Promise<Outcome>((r) => { finish = r; });
  guard.call(undefined as never, request, {} as FastifyReply, (err?: Error) => {
    outcome = { err };
    finish(outcome);
  });
  return { synchronously: outcome, finished };
}

const request = (who: string) => ({ headers: { who } }) as unknown as FastifyRequest & { admitted?: string };

describe('memoryFirstGuard', () => {
  const admitted: string[] = [];
  const guard = memoryFirstGuard<string>({
    fromMemory: (r) => (r.headers.who === 'known' ? 'known' : undefined),
    fromStorage: async (r) => {
      if (r.headers.who === 'nobody') throw new Error('refused by storage');
      return `stored ${String(r.headers.who)}`;
    },
  }, (_r, found) => {
    if (found.includes('banned')) throw new Error('refused at admission');
    admitted.push(found);
  });

  it('admits what memory vouches for before it returns, without asking storage', async () => {
    const { synchronously } = run(guard, request('known'));
    expect(synchronously).toEqual({ err: undefined });
    expect(admitted.at(-1)).toBe('known');
  });

  it('asks storage when memory cannot tell, and admits its answer', async () => {
    const { synchronously, finished } = run(guard, request('someone'));
    expect(synchronously).toBeUndefined();
    expect(await finished).toEqual({ err: undefined });
    expect(admitted.at(-1)).toBe('stored someone');
  });

  it('passes on a refusal from storage or from admission', async () => {
    expect((await run(guard, request('nobody')).finished).err?.message).toBe('refused by storage');
    expect((await run(guard, request('banned')).finished).err?.message).toBe('refused at admission');
  });
});
