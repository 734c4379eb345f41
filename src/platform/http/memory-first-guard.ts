import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, preHandlerHookHandler } from 'fastify';

/** How a guard learns whom a request acts for: from memory when it can, else by reading storage. */
export interface MemoryFirstCheck<A> {
  /** The answer from memory alone; undefined whenever memory cannot vouch for the request. */
  fromMemory(request: FastifyRequest): A | undefined;
  /** The full check, which reads what memory lacks and rejects with the request's refusal. */
  fromStorage(request: FastifyRequest): Promise<A>;
}

/**
 * The one place where the service answers without a promise. The Bearer token check in front
 * of `me` and OIDC UserInfo runs on nearly every call third parties make, and nearly always
 * for a token seen before whose user and application are cached. This pre-handler is written
 * in callback style so that case passes through with no promise and no microtask turn; only
 * when memory cannot vouch does it wait on `fromStorage`. Everything else is async.
 * `admit` applies the route's own conditions to the answer and throws to refuse.
 */
export function memoryFirstGuard<A>(check: MemoryFirstCheck<A>, admit: (request: FastifyRequest, found: A) => void): preHandlerHookHandler {
  return function memoryFirst(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    let known: A | undefined;
    try {
      known = check.fromMemory(request);
      if (known !== undefined) admit(request, known);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (known !== undefined) {
      done();
      return;
    }
    check.fromStorage(request).then((found) => {
      try {
        admit(request, found);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
    }, (err: Error) => done(err));
  };
}
