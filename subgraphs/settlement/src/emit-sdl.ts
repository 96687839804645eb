import 'reflect-metadata';
import { buildSettlementSchema } from './schema.js';

// Prints the subgraph SDL; `npm run compose` writes it to schema/settlement.graphql.
process.stdout.write((await buildSettlementSchema()).sdl);
