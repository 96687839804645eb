import 'reflect-metadata';
import { buildLensSchema } from './schema.js';

// Prints the subgraph SDL; `npm run compose` writes it to schema/lens.graphql.
process.stdout.write((await buildLensSchema()).sdl);
