// A throwaway PostgreSQL cluster for tests: initdb in a temp dir (as the postgres user when run as
// root: initdb refuses root), pg_ctl on a free 127.0.0.1 port with its socket in the same temp
// dir, removed afterwards. Each test takes a fresh database of its own from it (CREATE DATABASE
// is a file copy: milliseconds). Where no server binaries are found the suites skip, except in CI
// (CI=1 or true), where a PostgreSQL suite that skips is a failure.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The newest server binaries on this machine, or undefined. DIFF_REVIEW_PG_BIN overrides. */
export function postgresBin(): string | undefined {
  const explicit = process.env.DIFF_REVIEW_PG_BIN;
  if (explicit) return existsSync(path.join(explicit, 'initdb')) ? explicit : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/**
 * True when the PostgreSQL suites can run. In CI their absence is an error, not a skip, so a
 * machine without the binaries fails loudly instead of passing with the suites unrun.
 */
export function postgresAvailable(): boolean {
  if (postgresBin() !== undefined) return true;
  if (/^(1|true)$/i.test(process.env.CI ?? ''))
    throw new Error(
      "CI is set but no PostgreSQL server binaries (initdb) were found: .ci/run installs Debian's postgresql",
    );
  return false;
}

export interface PostgresCluster {
  readonly port: number;
  readonly host: string;
  /** A URL of the cluster's maintenance database (postgres). */
  readonly adminUrl: string;
  /** The server's self-signed certificate (PEM file), when it serves TLS. */
  readonly certificate?: string;
  /** Creates an empty database and answers its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server at once (as a crash would), keeping its files; start() brings it back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes the server and all its processes (SIGSTOP): it accepts connections but answers nothing. */
  freeze(): Promise<void>;
  /** Undoes freeze() (SIGCONT). */
  thaw(): Promise<void>;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
}

let databases = 0;

export interface PostgresClusterOptions {
  /** Serve TLS too, with a self-signed certificate made for the cluster (for sslmode tests). */
  ssl?: boolean;
  /** Require this password of the postgres user (scram-sha-256) instead of trusting every connection. */
  password?: string;
}

export async function startPostgres(clusterOptions: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL server binaries found (looked in /usr/lib/postgresql/*/bin)');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chown(dir, ...(await postgresIds()));
  const asPostgres = (file: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  const as = (cmd: string, args: string[]) => asPostgres(path.join(bin, cmd), args);
  const data = path.join(dir, 'data');
  const auth = ['-A', 'trust'];
  if (clusterOptions.password !== undefined) {
    const pwfile = path.join(dir, 'pwfile');
    await writeFile(pwfile, `${clusterOptions.password}\n`, { mode: 0o644 });
    auth.splice(0, 2, '-A', 'scram-sha-256', '--pwfile', pwfile);
  }
  await as('initdb', ['-D', data, '-U', 'postgres', ...auth, '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  const host = '127.0.0.1';
  let certificate: string | undefined;
  let options = `-p ${port} -k ${dir} -c listen_addresses=${host} -c fsync=off -c max_connections=200`;
  if (clusterOptions.ssl) {
    const [cert, key] = [path.join(data, 'server.crt'), path.join(data, 'server.key')];
    // The key must belong to the server's user and be private to it, or the server refuses it.
    const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert];
    await asPostgres('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', ...subject]);
    certificate = cert;
    options += ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
  }
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', options, 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  await start();
  let frozen: number[] = [];
  const serverProcesses = async () => {
    const postmaster = Number((await readFile(path.join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]);
    return [postmaster, ...stdout.split('\n').filter(Boolean).map(Number)];
  };
  const user =
    clusterOptions.password === undefined ? 'postgres' : `postgres:${encodeURIComponent(clusterOptions.password)}`;
  const adminUrl = `postgres://${user}@${host}:${port}/postgres`;
  let running = true;
  return {
    port,
    host,
    adminUrl,
    certificate,
    createDatabase: (name) => createDatabase(adminUrl, name),
    async stop() {
      await stop();
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async freeze() {
      frozen = await serverProcesses();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    async thaw() {
      for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
    },
    async destroy() {
      for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
      if (running) await stop().catch(() => {});
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Creates an empty database on the cluster of the admin URL and answers its URL. */
export async function createDatabase(adminUrl: string, name = `t${process.pid}_${++databases}`): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function postgresIds(): Promise<[number, number]> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return [Number(uid.stdout.trim()), Number(gid.stdout.trim())];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs one query on its own connection and answers the first column of its first row as a number (a count). */
export async function scalar(databaseUrl: string, sql: string, params: unknown[] = []): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query({ text: sql, values: params, rowMode: 'array' });
    return Number((rows[0] as unknown[])[0]);
  } finally {
    await client.end();
  }
}
