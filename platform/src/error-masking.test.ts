import { ConnectionException, DriverException } from '@mikro-orm/core';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { maskError, outageOf } from './error-masking.js';

/** An error as node-postgres or node's net module raises it: a message and maybe a code. */
const raised = (message: string, code?: string) =>
  Object.assign(new Error(message), code ? { code } : {});

/** How an error reaches formatError: inside a GraphQLError, as its originalError. */
const inResolver = (error: Error) =>
  new GraphQLError(error.message, { originalError: error, path: ['settlement'] });

// The shapes seen in the logs of the database-outage and lens-kill fault tests.
const unreachable: [string, Error][] = [
  ['a refused connection', raised('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
  ['a database shutting down', raised('the database system is shutting down', '57P03')],
  ['a database starting up', raised('the database system is starting up', '57P03')],
  ['too many connections', raised('sorry, too many clients already', '53300')],
  [
    'a pool client broken earlier, wrapped by the ORM',
    new DriverException(
      raised('select 1 - Client has encountered a connection error and is not queryable'),
    ),
  ],
  ['a pool timeout', raised('timeout exceeded when trying to connect')],
  [
    'a connection the ORM names',
    new ConnectionException(raised('getaddrinfo EAI_AGAIN db.internal')),
  ],
];

const interrupted: [string, Error][] = [
  ['a reset socket', raised('read ECONNRESET', 'ECONNRESET')],
  [
    'an administrator shutdown',
    raised('terminating connection due to administrator command', '57P01'),
  ],
  [
    'a dropped connection, wrapped by the ORM without a code',
    new DriverException(
      raised('select "s0".* from "settlement" - Connection terminated unexpectedly'),
    ),
  ],
  ['a subgraph socket closed by its peer', raised('other side closed', 'UND_ERR_SOCKET')],
];

describe('outageOf', () => {
  it.each(unreachable)('%s is an outage with nothing changed', (_name, error) => {
    expect(outageOf(error)).toBe('unreachable');
    expect(outageOf(inResolver(error))).toBe('unreachable');
  });

  it.each(interrupted)('%s is an outage with an unknown outcome', (_name, error) => {
    expect(outageOf(error)).toBe('interrupted');
    expect(outageOf(inResolver(error))).toBe('interrupted');
  });

  it('is null for a bug, even one whose message names a connection', () => {
    expect(
      outageOf(new TypeError("Cannot read properties of undefined (reading 'id')")),
    ).toBeNull();
    expect(outageOf(raised('duplicate key value violates unique constraint', '23505'))).toBeNull();
    expect(outageOf(raised('the connection name is too long'))).toBeNull();
  });
});

describe('maskError', () => {
  const formatted = (error: GraphQLError) => error.toJSON();

  it('answers an outage as a retryable 503 and says whether anything may have changed', () => {
    const down = inResolver(unreachable[0]![1]);
    expect(maskError(formatted(down), down)).toMatchObject({
      message: expect.stringContaining('nothing was changed'),
      path: ['settlement'],
      extensions: { code: 'SERVICE_UNAVAILABLE', retryable: true },
    });
    const cut = inResolver(interrupted[0]![1]);
    expect(maskError(formatted(cut), cut)).toMatchObject({
      message: expect.stringContaining('outcome is unknown'),
      extensions: { code: 'SERVICE_UNAVAILABLE', retryable: true },
    });
  });

  it('masks an unexpected error: no SQL, no stack, only the request-id pointer', () => {
    const bug = inResolver(raised('select secret from vault - syntax error at or near "from"'));
    const shown = maskError({ ...formatted(bug), extensions: { stacktrace: ['at x'] } }, bug);
    expect(shown.extensions).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(shown)).not.toMatch(/select|vault|stacktrace/);
  });

  it('keeps catalogue and GraphQL request errors as they are', () => {
    const refusal = new GraphQLError('Settlement SET1 was not found.', {
      extensions: { code: 'NOT_FOUND', httpStatus: 404 },
    });
    expect(maskError(formatted(refusal), refusal)).toEqual(formatted(refusal));
    const invalid = new GraphQLError('Cannot query field "x".', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(maskError(formatted(invalid), invalid)).toEqual(formatted(invalid));
  });
});
