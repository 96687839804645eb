import { ServerResponse } from 'node:http';
import type { Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/**
 * The SDK's context manager (AsyncLocalStorage), except that a server response is not bound to
 * the request's context (issue 26, cost). The HTTP instrumentation binds the request and the
 * response of every incoming call: each listener then gets a wrapper (a closure, a WeakMap entry,
 * a property definition) and every event a context switch. The request needs it: its body
 * arrives in socket callbacks that know nothing of the request, and whatever reads it must run
 * in the request's trace. The response does not: its listeners ('finish', 'close': fastify's
 * onResponse hooks with the request's log line, the instrumentation ending its span) are called
 * back by the write that ended it, which the handler started, so they already run in the
 * request's context, or need none.
 */
export class RequestBoundContextManager extends AsyncLocalStorageContextManager {
  override bind<T>(context: Context, target: T): T {
    if (target instanceof ServerResponse) return target;
    return super.bind(context, target);
  }
}
