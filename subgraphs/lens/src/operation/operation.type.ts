import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import type { OperationStatus } from './operation.entity.js';
import type { OperationRecord } from './operation-record.js';

export enum OperationStatusValue {
  RUNNING = 'RUNNING',
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
  RECONCILIATION_REQUIRED = 'RECONCILIATION_REQUIRED',
}
registerEnumType(OperationStatusValue, { name: 'OperationStatus' });

/**
 * The envelope's types are plain data: their fields are read as graphql's default resolver reads
 * them, with no type-graphql wrapper per field (issue 27; none has a role or middleware, and the
 * `accounts` field resolver of LensOperation keeps its own). As settlement's ExposedEntity does.
 */
const PLAIN = { simpleResolvers: true } as const;

@ObjectType({
  ...PLAIN,
  description: 'Why an operation failed; the same catalogue as HTTP error bodies.',
})
export class OperationError {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => Int) httpStatus!: number;
  @Field() retryable!: boolean;
}

@ObjectType({
  ...PLAIN,
  description: 'Credits of one operation; on a terminal one, reserved = charged + refunded.',
})
export class OperationCredits {
  @Field(() => Int) reserved!: number;
  @Field(() => Int) charged!: number;
  @Field(() => Int) refunded!: number;
}

/** What the envelope is made of. */
export type OperationView = Pick<
  OperationRecord,
  'id' | 'operationName' | 'status' | 'creditsReserved' | 'creditsCharged' | 'creditsRefunded'
> & {
  result?: Record<string, unknown> | null | undefined;
  error?: OperationRecord['error'] | undefined;
  observedAt?: Date | null | undefined;
  createdAt: Date;
};

@ObjectType({ ...PLAIN, description: 'A billed lens operation: the envelope of every lens call.' })
export class LensOperation {
  @Field(() => ID) operationId!: string;
  @Field() operationName!: string;
  @Field(() => OperationStatusValue) status!: OperationStatus;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The result, shaped per operation.',
  })
  data?: Record<string, unknown> | null;
  @Field(() => OperationError, { nullable: true }) error?: OperationError | null;
  @Field(() => OperationCredits) credits!: OperationCredits;
  @Field({ description: 'True when an existing execution was returned for a repeated key.' })
  replayed!: boolean;
  @Field(() => GraphQLDateTimeISO, { nullable: true, description: 'When the data was observed.' })
  observedAt?: Date | null;
  @Field(() => GraphQLDateTimeISO, { description: 'When the operation was accepted.' })
  createdAt!: Date;

  /** From the hot path's record, or the entity (console lists), which has the same fields. */
  static from(operation: OperationView, replayed: boolean): LensOperation {
    return Object.assign(new LensOperation(), {
      operationId: operation.id,
      operationName: operation.operationName,
      status: operation.status,
      data: operation.result ?? null,
      error: operation.error ?? null,
      credits: {
        reserved: Number(operation.creditsReserved),
        charged: Number(operation.creditsCharged),
        refunded: Number(operation.creditsRefunded),
      },
      replayed,
      observedAt: operation.observedAt ?? null,
      createdAt: operation.createdAt,
    });
  }
}

@ObjectType({ description: 'One page of operations; pass nextCursor as `after` for the next.' })
export class LensOperationPage {
  @Field(() => [LensOperation]) items!: LensOperation[];
  @Field(() => String, { nullable: true }) nextCursor!: string | null;

  /** A page of stored operations as GraphQL shows them (none of them a replay). */
  static from(page: { items: readonly OperationView[]; nextCursor: string | null }) {
    const shown = new LensOperationPage();
    shown.items = page.items.map((o) => LensOperation.from(o, false));
    shown.nextCursor = page.nextCursor;
    return shown;
  }
}
