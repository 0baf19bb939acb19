// The one Store contract (store-contract.ts) against both stores: lowdb in a temp data dir, and
// PostgreSQL in a throwaway cluster (a fresh database per case), with its copies at hand in use.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { LowdbStore } from '../../../service/store/lowdb-store.ts';
import { PostgresStore } from '../../../service/store/postgres/postgres-store.ts';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { storeContract } from './store-contract.ts';

const silent = { warn() {}, error() {}, info() {} };

storeContract('lowdb', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-contract-'));
  return {
    open: () => LowdbStore.open(dir, { log: silent }),
    lookups: (store) => store,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
});

describe.skipIf(!postgresAvailable())('on PostgreSQL', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.destroy());
  storeContract('PostgreSQL', async () => {
    const url = await cluster.createDatabase();
    return {
      async open() {
        const store = await PostgresStore.open(url, { poolSize: 4, log: silent });
        await store.atHand.reloadTokens(); // as the service's listener does once it is up: copies at hand are used
        return store;
      },
      lookups: (store) => store.atHand,
      remove: async () => {},
    };
  });
});
