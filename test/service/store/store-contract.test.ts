// The one Store contract (store-contract.ts) against both stores: lowdb in a temp data dir, and
// PostgreSQL in a throwaway cluster (a fresh database per case).
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
    return { open: () => PostgresStore.open(url, { poolSize: 4, log: silent }), remove: async () => {} };
  });
});
