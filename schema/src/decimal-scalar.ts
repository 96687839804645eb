import { Decimal } from 'decimal.js';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const DECIMAL_PATTERN = /^-?\d{1,13}(\.\d{1,2})?$/;

/** PostgreSQL's text of a numeric(15,2): already the wire form, exactly (no leading zeros, no -0). */
const STORED_PATTERN = /^-?(0|[1-9]\d{0,12})\.\d\d$/;

function serialize(value: unknown): string {
  if (typeof value === 'string' && STORED_PATTERN.test(value) && value !== '-0.00') return value;
  return (value instanceof Decimal ? value : new Decimal(value as Decimal.Value)).toFixed(2);
}

function parse(value: unknown): Decimal {
  if (typeof value === 'string' && DECIMAL_PATTERN.test(value.trim()))
    return new Decimal(value.trim());
  throw new GraphQLError('Decimal must be a string such as "1000000.00" (at most 2 decimals).', {
    extensions: { code: 'INVALID_REQUEST' },
  });
}

/**
 * Amounts and rates on the wire: a decimal string with exactly two decimals on output
 * ("1000000.00", "3.30"); a decimal string with at most two on input. Never a float.
 */
export const DecimalScalar = new GraphQLScalarType<Decimal, string>({
  name: 'Decimal',
  description: 'A decimal number as a string with two decimals, e.g. "1000000.00". Never a float.',
  // A row read as stored (issue 27) carries the column's text, sent as it is; a Decimal or any
  // other decimal string goes through decimal.js. Never a float.
  serialize,
  parseValue: parse,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING) return parse(ast.value);
    throw new GraphQLError('Decimal literals must be strings.', {
      extensions: { code: 'INVALID_REQUEST' },
    });
  },
});
