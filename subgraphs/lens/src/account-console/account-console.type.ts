import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { CredentialRow } from '../tenant/credential.repository.js';
import type { AccountRow } from '../tenant/tenant.repository.js';

@ObjectType({
  description:
    'A credential of a lens account: a REST API key (rest), a tool-protocol token (mcp) or an ' +
    'OAuth connection (oauth). The secret is never shown again after it is issued.',
})
export class ApiCredential {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'rest, mcp or oauth.' }) kind!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'The first characters of the secret, to tell it apart.' })
  prefix!: string;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description: 'When it last started a billed call, to the minute; null: never.',
  })
  lastUsedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) revokedAt!: Date | null;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description: 'Set when it was rotated: the end of the grace period in which it still works.',
  })
  expiresAt!: Date | null;
  @Field(() => [String], {
    nullable: true,
    description: "The operations it may call (an OAuth connection's grant); null: every one.",
  })
  operations!: string[] | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The most credits it may spend in all (an OAuth connection); null: no cap.',
  })
  creditsCap!: number | null;

  static from(row: CredentialRow): ApiCredential {
    const date = (value: Date | string | null) => (value === null ? null : new Date(value));
    return Object.assign(new ApiCredential(), {
      id: row.id,
      kind: row.kind,
      name: row.name,
      prefix: row.key_prefix,
      createdAt: new Date(row.created_at),
      lastUsedAt: date(row.last_used_at),
      revokedAt: date(row.revoked_at),
      expiresAt: date(row.expires_at),
      operations: row.operations,
      creditsCap: row.credits_cap === null ? null : Number(row.credits_cap),
    });
  }
}

@ObjectType({ description: 'A new credential and its secret, shown this once.' })
export class IssuedApiCredential {
  @Field(() => ApiCredential) credential!: ApiCredential;
  @Field(() => String, { description: 'Shown only now: store it; only its hash is kept.' })
  secret!: string;
  @Field(() => ApiCredential, {
    nullable: true,
    description: 'After a rotation: the credential replaced, working until its expiresAt.',
  })
  previous!: ApiCredential | null;

  /** What a create or a rotation answers: the row, its secret and, rotated, the one replaced. */
  static from(issued: {
    credential: CredentialRow;
    secret: string;
    previous?: CredentialRow;
  }): IssuedApiCredential {
    return {
      credential: ApiCredential.from(issued.credential),
      secret: issued.secret,
      previous: issued.previous ? ApiCredential.from(issued.previous) : null,
    };
  }
}

@ObjectType({ description: 'The low-balance e-mail of a lens account.' })
export class LowBalanceAlert {
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The e-mail goes when the balance falls below.',
  })
  below!: number | null;
  @Field(() => Boolean, {
    description:
      'Whether the next fall below sends the e-mail (a top-up to the threshold re-arms).',
  })
  armed!: boolean;

  static from(row: AccountRow): LowBalanceAlert {
    return Object.assign(new LowBalanceAlert(), {
      email: row.alert_email,
      below: row.alert_below === null ? null : Number(row.alert_below),
      armed: row.alert_below !== null && row.low_balance_armed,
    });
  }
}

@ObjectType({ description: 'Calls of one UTC day by one credential to one operation.' })
export class LensUsageRow {
  @Field(() => String) day!: string;
  @Field(() => ID) credentialId!: string;
  @Field(() => String, { description: 'rest, mcp or oauth.' }) credentialKind!: string;
  @Field(() => String) operationName!: string;
  @Field(() => Int) calls!: number;
  @Field(() => Int) succeeded!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) charged!: number;
  @Field(() => Int) refunded!: number;
}

@ObjectType()
export class LensUsageTotals {
  @Field(() => Int) calls!: number;
  @Field(() => Int) charged!: number;
  @Field(() => Int) refunded!: number;
}

@ObjectType({ description: 'The usage view of a lens account over a range of UTC days.' })
export class LensUsage {
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
  @Field(() => Int, { description: 'The balance now.' }) balance!: number;
  @Field(() => [LensUsageRow]) rows!: LensUsageRow[];
  @Field(() => LensUsageTotals) totals!: LensUsageTotals;
}
