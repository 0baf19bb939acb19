// `diff-review serve | token | review`: the service's command line (review: service/cli/). Every flag of `serve` can also be
// set with a DIFF_REVIEW_* variable (flags win).
import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { Compile } from 'typebox/compile';
import { LIMITS } from './api/limits.ts';
import { CreateTokenBody, type ReviewScope } from './api/schemas.ts';
import { dashboardTokenFile, LOCAL_OWNER, rotateDashboardToken } from './auth/dashboard-token.ts';
import { REVIEW_SCOPES, TokenService } from './auth/tokens.ts';
import { createClient } from './client/index.ts';
import { addReviewCommand } from './cli/review-command.ts';
import { systemClock } from './clock.ts';
import { createService, defaultDataDir, DEFAULTS } from './service.ts';
import { acquireDataDirLock, liveLockOwner } from './store/data-dir-lock.ts';
import { LowdbStore } from './store/lowdb-store.ts';
import { VERSION } from './version.ts';

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
  return n;
};

/** The API's own rule for a token name, so the offline path (no service running) refuses what the API refuses. */
const tokenNameShape = Compile(CreateTokenBody.properties.name);
const tokenName = (value: string) => {
  if (!tokenNameShape.Check(value))
    throw new InvalidArgumentError(`must be 1–${LIMITS.tokenNameChars} characters with at least one visible one, and no control, format or line-separator characters.`);
  return value;
};

/** `a, b,c` → ['a', 'b', 'c']. */
const names = (value: string) => value.split(',').map((name) => name.trim()).filter(Boolean);

const dataDirOption = () =>
  new Option('--data-dir <dir>', 'where the store, diffs and the dashboard-token file live')
    .env('DIFF_REVIEW_DATA_DIR')
    .default(defaultDataDir());

export function buildCli(): Command {
  const program = new Command('diff-review')
    .description('Diff Review: asynchronous code review of pull-request diffs.')
    .version(VERSION)
    .showHelpAfterError();

  program
    .command('serve')
    .description('Run the service (the API on http://HOST:PORT/v1, the OpenAPI document at /v1/openapi.json).')
    .addOption(new Option('--host <host>', 'address to listen on').env('DIFF_REVIEW_HOST').default(DEFAULTS.host))
    .addOption(new Option('--port <port>', 'port to listen on (0: any free port)').env('DIFF_REVIEW_PORT').default(DEFAULTS.cliPort).argParser(integer(0, 65535)))
    .addOption(dataDirOption())
    .addOption(new Option('--database-url <url>', 'keep everything in this PostgreSQL database (postgres://…) instead of the data dir; any number of instances may share it').env('DIFF_REVIEW_DATABASE_URL'))
    .addOption(new Option('--database-pool-size <n>', 'connections to the database this instance opens at most').env('DIFF_REVIEW_DATABASE_POOL_SIZE').default(10).argParser(integer(1, 1000)))
    .addOption(new Option('--concurrency <n>', 'reviews run at once (default: the number of cores)').env('DIFF_REVIEW_CONCURRENCY').argParser(integer(1, 256)))
    .addOption(new Option('--job-timeout <seconds>', 'a review running longer fails with "timeout"').env('DIFF_REVIEW_JOB_TIMEOUT').default(DEFAULTS.jobTimeoutMs / 1000).argParser(integer(1, 86_400)))
    .addOption(new Option('--retention-days <days>', 'finished reviews are deleted after this many days').env('DIFF_REVIEW_RETENTION_DAYS').default(DEFAULTS.retentionDays).argParser(integer(1, 36_500)))
    .addOption(new Option('--max-queued <n>', 'waiting reviews beyond which creates answer 429 queue_full').env('DIFF_REVIEW_MAX_QUEUED').default(DEFAULTS.maxQueuedJobs).argParser(integer(1)))
    .addOption(new Option('--rate-limit <n>', 'list, events and SARIF requests per minute per token (0: off; a single review\'s GET is never limited)').env('DIFF_REVIEW_RATE_LIMIT').default(DEFAULTS.rateLimits.read).argParser(integer(0)))
    .addOption(new Option('--create-rate-limit <n>', 'creates and cancels per minute per token (0: off)').env('DIFF_REVIEW_CREATE_RATE_LIMIT').default(DEFAULTS.rateLimits.create).argParser(integer(0)))
    .addOption(new Option('--max-event-streams <n>', 'event streams open at once, all tokens together (429 beyond)').env('DIFF_REVIEW_MAX_EVENT_STREAMS').default(DEFAULTS.eventStreams.total).argParser(integer(1)))
    .addOption(new Option('--max-event-streams-per-token <n>', 'event streams one token may hold open at once (429 beyond)').env('DIFF_REVIEW_MAX_EVENT_STREAMS_PER_TOKEN').default(DEFAULTS.eventStreams.perToken).argParser(integer(1)))
    .addOption(new Option('--event-stream-lifetime <seconds>', 'an event stream ends after this long (the client reconnects or polls)').env('DIFF_REVIEW_EVENT_STREAM_LIFETIME').default(DEFAULTS.eventStreams.lifetimeMs / 1000).argParser(integer(1, 86_400)))
    .addOption(new Option('--allowed-hosts <names>', 'comma-separated Host names answered besides 127.0.0.1, localhost and [::1] (DNS rebinding: others get 421); "*": any').env('DIFF_REVIEW_ALLOWED_HOSTS').default([], 'none').argParser(names))
    .addOption(new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent').env('DIFF_REVIEW_LOG_LEVEL').default('info').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .addHelpText('after', '\nDIFF_REVIEW_DASHBOARD_TOKEN (32+ printable characters) sets the dashboard token instead of the generated <data dir>/dashboard-token file.')
    .action(serve);

  const token = program.command('token').description('Manage tokens.');
  token
    .command('create')
    .description('Create a review API token and print its secret (once) on stdout. Uses the running service when there is one.')
    .requiredOption('--name <name>', `what the token is for (1–${LIMITS.tokenNameChars} characters)`, tokenName)
    .addOption(new Option('--scopes <scopes>', 'comma-separated: reviews:read, reviews:write').default([...REVIEW_SCOPES], REVIEW_SCOPES.join(',')).argParser(parseScopes))
    .addOption(new Option('--expires-in-days <days>', `1–${LIMITS.tokenMaxDays}, or "never"`).default(LIMITS.tokenDefaultDays).argParser(parseDays))
    .addOption(dataDirOption())
    .action(createToken);
  token
    .command('rotate-dashboard')
    .description('Give the dashboard token a new secret (the old one stops working) and write it to <data dir>/dashboard-token. The service must be stopped.')
    .addOption(dataDirOption())
    .action(rotateDashboard);

  addReviewCommand(program);
  return program;
}

interface ServeFlags {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  concurrency?: number;
  jobTimeout: number;
  retentionDays: number;
  maxQueued: number;
  rateLimit: number;
  createRateLimit: number;
  maxEventStreams: number;
  maxEventStreamsPerToken: number;
  eventStreamLifetime: number;
  allowedHosts: string[];
  logLevel: string;
}

async function serve(flags: ServeFlags) {
  const service = await createService({
    host: flags.host,
    port: flags.port,
    dataDir: flags.dataDir,
    databaseUrl: flags.databaseUrl || undefined,
    databasePoolSize: flags.databasePoolSize,
    concurrency: flags.concurrency,
    jobTimeoutMs: flags.jobTimeout * 1000,
    retentionDays: flags.retentionDays,
    maxQueuedJobs: flags.maxQueued,
    rateLimits: { read: flags.rateLimit, create: flags.createRateLimit },
    eventStreams: { total: flags.maxEventStreams, perToken: flags.maxEventStreamsPerToken, lifetimeMs: flags.eventStreamLifetime * 1000 },
    allowedHosts: flags.allowedHosts,
    logLevel: flags.logLevel,
    dashboardToken: process.env.DIFF_REVIEW_DASHBOARD_TOKEN || undefined,
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(1); // a second signal: the user does not want to wait
    }
    stopping = true;
    service.log.info({ signal }, 'stopping: finishing running reviews');
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        service.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function createToken(flags: { name: string; scopes: ReviewScope[]; expiresInDays: number | null; dataDir: string }) {
  const body = { name: flags.name, scopes: flags.scopes, expires_in_days: flags.expiresInDays };
  const running = liveLockOwner(flags.dataDir);
  let created;
  if (running?.url) {
    // The service owns the store while it runs: go through its API with the dashboard token.
    const dashboard = process.env.DIFF_REVIEW_DASHBOARD_TOKEN || (await readFile(dashboardTokenFile(flags.dataDir), 'utf8')).trim();
    created = await createClient({ baseUrl: running.url, token: dashboard }).createToken(body);
  } else {
    created = await withStore(flags.dataDir, (store) => new TokenService(store, systemClock).createReviewToken(LOCAL_OWNER, body));
  }
  process.stderr.write(`Created review token ${created.id} "${created.name}" (${created.scopes.join(', ')}; expires ${created.expires_at ?? 'never'}).\nThe secret is shown this once:\n`);
  process.stdout.write(created.token + '\n');
}

async function rotateDashboard(flags: { dataDir: string }) {
  const file = await withStore(flags.dataDir, (store) => rotateDashboardToken(store, flags.dataDir, systemClock));
  process.stderr.write(`The dashboard token has a new secret, in ${file}. The old one no longer works.\n`);
}

/** Opens the store of a data dir no service is using, for one operation. */
async function withStore<T>(dataDir: string, work: (store: LowdbStore) => Promise<T>): Promise<T> {
  const lock = acquireDataDirLock(dataDir);
  try {
    const store = await LowdbStore.open(dataDir);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } finally {
    lock.release();
  }
}

function parseScopes(value: string): ReviewScope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !REVIEW_SCOPES.includes(s as ReviewScope));
  if (unknown.length || scopes.length === 0) throw new InvalidArgumentError(`use ${REVIEW_SCOPES.join(' and/or ')}, comma-separated.`);
  return [...new Set(scopes)] as ReviewScope[];
}

function parseDays(value: string): number | null {
  return value === 'never' ? null : integer(1, LIMITS.tokenMaxDays)(value);
}

// Run when executed, not when imported by tests.
const entry = process.argv[1] ?? '';
if (/cli\.(ts|js|mjs)$/.test(entry) || entry.endsWith('diff-review')) {
  buildCli()
    .parseAsync()
    .catch((error: unknown) => {
      process.stderr.write(`diff-review: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
