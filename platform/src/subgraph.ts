/**
 * What only the subgraphs use (issue 27): the federated schema builder (type-graphql and
 * @apollo/subgraph), the ORM's decimal column type (@mikro-orm/core), a subgraph's ORM and its
 * migration (@mikro-orm/postgresql). Apart from the main entry so that the gateway and the REST
 * adapter, which never build a subgraph schema nor open the ORM, do not load those libraries
 * (about 20 MB of each process's memory).
 */
export * from './federation.js';
export * from './orm.js';
export * from './subgraph-orm.js';
export * from './subgraph-server.js';
