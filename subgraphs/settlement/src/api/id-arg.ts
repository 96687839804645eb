import { Arg, ID } from 'type-graphql';

/** The `id: ID!` argument of the subgraph's reads and mutations of one row, declared once. */
export const IdArg = () => Arg('id', () => ID);
