// Runs every service benchmark, one after another, and prints one table of all figures.
// Run: npm run bench   (or node test/bench/run.ts [name ...]: api, create, polling, store, cold, cli, instances, pg-scale)
import { apiThroughput } from './api-throughput.ts';
import { cliReview } from './cli.ts';
import { coldStart } from './cold-start.ts';
import { createThroughput } from './create-throughput.ts';
import { pollingWhileBusy } from './polling-while-busy.ts';
import { postgresInstances } from './postgres-instances.ts';
import { postgresScale } from './postgres-scale.ts';
import { storeScale } from './store-scale.ts';
import { printRows, type Row } from './support/harness.ts';

const ALL: Record<string, [string, () => Promise<Row[]>]> = {
  api: ['API throughput', apiThroughput],
  create: ['Create throughput', createThroughput],
  polling: ['Polling while busy', pollingWhileBusy],
  store: ['Scale of the store', storeScale],
  cold: ['Cold start', coldStart],
  cli: ['CLI wall time', cliReview],
  instances: ['Several instances on PostgreSQL', postgresInstances],
  'pg-scale': ['PostgreSQL: latency and scale', postgresScale],
};
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(ALL);
const rows: Row[] = [];
for (const name of chosen) {
  const entry = ALL[name];
  if (!entry) throw new Error(`unknown benchmark ${name}; one of ${Object.keys(ALL).join(', ')}`);
  const [title, run] = entry;
  console.log(`== ${title}`);
  const these = await run();
  printRows(title, these);
  rows.push(...these);
}
printRows('All figures', rows);
if (rows.some((r) => r.pass === false)) process.exitCode = 1;
