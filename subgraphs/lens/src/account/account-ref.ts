import { Field, InputType } from 'type-graphql';
import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import type { AccountRef } from '../upstream/upstream.port.js';

@InputType({ description: 'Exactly one of handle or accountId.' })
export class AccountRefInput {
  @Field(() => String, { nullable: true, description: '1-30 letters, digits, dots, underscores' })
  handle?: string | null;

  @Field(() => String, { nullable: true, description: '1-30 digits, first digit 1-9' })
  accountId?: string | null;
}

const handleRef = z.strictObject({
  handle: z
    .string()
    .regex(/^[A-Za-z0-9._]{1,30}$/, 'handle must be 1-30 letters, digits, dots or underscores'),
});
const idRef = z.strictObject({
  accountId: z.string().regex(/^[1-9][0-9]{0,29}$/, 'accountId must be 1-30 digits, the first 1-9'),
});

export const accountRefSchema = z
  .record(z.string(), z.unknown())
  .transform((raw) =>
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== undefined)),
  )
  .pipe(
    z.union([handleRef, idRef], {
      error: 'accountRef must have exactly one of handle or accountId',
    }),
  );

/** Reads operation input with a zod schema; any problem is a 400 naming the field. */
export function parseOperationInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  // type-graphql hands over class instances; the rules are written for plain JSON input.
  const result = schema.safeParse(raw === undefined ? undefined : JSON.parse(JSON.stringify(raw)));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'body';
  throw new PlatformError('INVALID_REQUEST', `${where}: ${issue.message}`);
}

export type { AccountRef };
