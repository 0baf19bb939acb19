// `diff-review serve | token | review | rules`: the service's command line (the commands' code: service/cli/). Every flag of
// `serve` can also be set with a DIFF_REVIEW_* variable (flags win). Each command's code is imported when it runs, so
// `review` never loads Fastify, pg or the store, and `--help` loads none of them (test/bench/cli.ts).
import { enableCompileCache } from 'node:module';
import { Command, InvalidArgumentError, Option } from 'commander';
import { LIMITS } from './api/limits.ts';
import type { ReviewScope } from './api/schemas.ts';
import { REVIEW_SCOPES } from './auth/review-scopes.ts';
import { addReviewCommand } from './cli/review-command.ts';
import { addRulesCommand } from './cli/rules-command.ts';
import { addSuppressionsCommand } from './cli/suppressions-command.ts';
import { defaultDataDir, DEFAULTS } from './defaults.ts';
import { VERSION } from './version.ts';

const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    return n;
  };

/** `a, b,c` → ['a', 'b', 'c']. */
const names = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

const dataDirOption = () =>
  new Option('--data-dir <dir>', 'where the store, diffs and the dashboard-token file live')
    .env('DIFF_REVIEW_DATA_DIR')
    .default(defaultDataDir());

const databaseUrlOption = (description: string) =>
  new Option('--database-url <url>', description).env('DIFF_REVIEW_DATABASE_URL');

export function buildCli(): Command {
  const program = new Command('diff-review')
    .description('Diff Review: asynchronous code review of pull-request diffs.')
    .version(VERSION)
    .showHelpAfterError();

  program
    .command('serve')
    .description('Run the service (the API on http://HOST:PORT/v1, the OpenAPI document at /v1/openapi.json).')
    .addOption(new Option('--host <host>', 'address to listen on').env('DIFF_REVIEW_HOST').default(DEFAULTS.host))
    .addOption(
      new Option('--port <port>', 'port to listen on (0: any free port)')
        .env('DIFF_REVIEW_PORT')
        .default(DEFAULTS.cliPort)
        .argParser(integer(0, 65535)),
    )
    .addOption(dataDirOption())
    .addOption(
      databaseUrlOption(
        'keep everything in this PostgreSQL database (postgres://…) instead of the data dir; any number of instances may share it',
      ),
    )
    .addOption(
      new Option('--database-pool-size <n>', 'connections to the database this instance opens at most')
        .env('DIFF_REVIEW_DATABASE_POOL_SIZE')
        .default(10)
        .argParser(integer(1, 1000)),
    )
    .addOption(
      new Option('--concurrency <n>', 'reviews run at once (default: the number of cores)')
        .env('DIFF_REVIEW_CONCURRENCY')
        .argParser(integer(1, 256)),
    )
    .addOption(
      new Option('--job-timeout <seconds>', 'a review running longer fails with "timeout"')
        .env('DIFF_REVIEW_JOB_TIMEOUT')
        .default(DEFAULTS.jobTimeoutMs / 1000)
        .argParser(integer(1, 86_400)),
    )
    .addOption(
      new Option('--retention-days <days>', 'finished reviews are deleted after this many days')
        .env('DIFF_REVIEW_RETENTION_DAYS')
        .default(DEFAULTS.retentionDays)
        .argParser(integer(1, 36_500)),
    )
    .addOption(
      new Option('--max-queued <n>', 'waiting reviews beyond which creates answer 429 queue_full')
        .env('DIFF_REVIEW_MAX_QUEUED')
        .default(DEFAULTS.maxQueuedJobs)
        .argParser(integer(1)),
    )
    .addOption(
      new Option(
        '--rate-limit <n>',
        "list, events and SARIF requests per minute per token (0: off; a single review's GET is never limited)",
      )
        .env('DIFF_REVIEW_RATE_LIMIT')
        .default(DEFAULTS.rateLimits.read)
        .argParser(integer(0)),
    )
    .addOption(
      new Option('--create-rate-limit <n>', 'creates and cancels per minute per token (0: off)')
        .env('DIFF_REVIEW_CREATE_RATE_LIMIT')
        .default(DEFAULTS.rateLimits.create)
        .argParser(integer(0)),
    )
    .addOption(
      new Option('--max-event-streams <n>', 'event streams open at once, all tokens together (429 beyond)')
        .env('DIFF_REVIEW_MAX_EVENT_STREAMS')
        .default(DEFAULTS.eventStreams.total)
        .argParser(integer(1)),
    )
    .addOption(
      new Option('--max-event-streams-per-token <n>', 'event streams one token may hold open at once (429 beyond)')
        .env('DIFF_REVIEW_MAX_EVENT_STREAMS_PER_TOKEN')
        .default(DEFAULTS.eventStreams.perToken)
        .argParser(integer(1)),
    )
    .addOption(
      new Option(
        '--event-stream-lifetime <seconds>',
        'an event stream ends after this long (the client reconnects or polls)',
      )
        .env('DIFF_REVIEW_EVENT_STREAM_LIFETIME')
        .default(DEFAULTS.eventStreams.lifetimeMs / 1000)
        .argParser(integer(1, 86_400)),
    )
    .addOption(
      new Option(
        '--allowed-hosts <names>',
        'comma-separated Host names answered besides 127.0.0.1, localhost and [::1] (DNS rebinding: others get 421); "*": any',
      )
        .env('DIFF_REVIEW_ALLOWED_HOSTS')
        .default([], 'none')
        .argParser(names),
    )
    .addOption(
      new Option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
        .env('DIFF_REVIEW_LOG_LEVEL')
        .default('info')
        .choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    )
    .addHelpText(
      'after',
      '\nDIFF_REVIEW_DASHBOARD_TOKEN (32+ printable characters) sets the dashboard token instead of the generated <data dir>/dashboard-token file.',
    )
    .action(async (flags) => (await import('./cli/serve-command.ts')).serve(flags));

  const token = program.command('token').description('Manage tokens.');
  token
    .command('create')
    .description(
      'Create a review API token and print its secret (once) on stdout. Uses the running service when there is one.',
    )
    .requiredOption('--name <name>', `what the token is for (1–${LIMITS.tokenNameChars} characters)`)
    .addOption(
      new Option('--scopes <scopes>', 'comma-separated: reviews:read, reviews:write')
        .default([...REVIEW_SCOPES], REVIEW_SCOPES.join(','))
        .argParser(parseScopes),
    )
    .addOption(
      new Option('--expires-in-days <days>', `1–${LIMITS.tokenMaxDays}, or "never"`)
        .default(LIMITS.tokenDefaultDays)
        .argParser(parseDays),
    )
    .addOption(dataDirOption())
    .addOption(databaseUrlOption("create it in this PostgreSQL database (the instances' shared store)"))
    .action(async (flags) => (await import('./cli/token-commands.ts')).createToken(flags));
  token
    .command('rotate-dashboard')
    .description(
      'Give the dashboard token a new secret (the old one stops working) and write it to <data dir>/dashboard-token. The service must be stopped. With --database-url: the secret is printed once on stdout instead, and the instances may keep running.',
    )
    .addOption(dataDirOption())
    .addOption(databaseUrlOption('rotate the token shared by the instances of this PostgreSQL database'))
    .action(async (flags) => (await import('./cli/token-commands.ts')).rotateDashboard(flags));

  addReviewCommand(program);
  addRulesCommand(program);
  addSuppressionsCommand(program);
  return program;
}

function parseScopes(value: string): ReviewScope[] {
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !REVIEW_SCOPES.includes(s as ReviewScope));
  if (unknown.length || scopes.length === 0)
    throw new InvalidArgumentError(`use ${REVIEW_SCOPES.join(' and/or ')}, comma-separated.`);
  return [...new Set(scopes)] as ReviewScope[];
}

function parseDays(value: string): number | null {
  return value === 'never' ? null : integer(1, LIMITS.tokenMaxDays)(value);
}

// Run when executed, not when imported by tests.
const entry = process.argv[1] ?? '';
if (/cli\.(ts|js|mjs)$/.test(entry) || entry.endsWith('diff-review')) {
  // V8 keeps the code it compiles for the command's modules (in the OS's temp folder, as tsc does), so
  // a later start does not compile them again (test/bench/cold-start.ts).
  enableCompileCache();
  // Output piped into a program that stops reading (`| head`): stop quietly, as other tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  buildCli()
    .parseAsync()
    .catch((error: unknown) => {
      process.stderr.write(`diff-review: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
