// sslmode in the database URL means what it means to psql (libpq): require encrypts without
// verifying, verify-full verifies, disable does not encrypt. A throwaway cluster serving TLS with
// a self-signed certificate, and one without TLS.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libpqConnectionString } from '../../../service/store/postgres/database-url.ts';
import { PostgresStore } from '../../../service/store/postgres/postgres-store.ts';
import { postgresAvailable, startPostgres, type PostgresCluster } from '../../support/postgres.ts';

/** Whether the store's open connections (application_name diff-review) are encrypted, seen by the server. */
async function encrypted(adminUrl: string): Promise<boolean[]> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ssl: boolean }>(
      "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'diff-review'",
    );
    return rows.map((row) => row.ssl);
  } finally {
    await admin.end();
  }
}

const withSslMode = (url: string, mode: string) => {
  const withMode = new URL(url);
  withMode.searchParams.set('sslmode', mode);
  return withMode.toString().replace('postgres@', 'postgres:pw-s3cr3t@');
};

describe.skipIf(!postgresAvailable())('sslmode in the database URL', () => {
  let tls: PostgresCluster;
  let plain: PostgresCluster;
  beforeAll(async () => {
    [tls, plain] = await Promise.all([startPostgres({ ssl: true }), startPostgres()]);
  });
  afterAll(async () => {
    await Promise.all([tls?.destroy(), plain?.destroy()]);
  });

  it('require: encrypted, a self-signed certificate accepted (as psql does)', async () => {
    const store = await PostgresStore.open(withSslMode(await tls.createDatabase(), 'require'), { poolSize: 1 });
    try {
      expect(await encrypted(tls.adminUrl)).toEqual([true]);
    } finally {
      await store.close();
    }
  });

  it('disable: not encrypted, on a server that offers TLS', async () => {
    const store = await PostgresStore.open(withSslMode(await tls.createDatabase(), 'disable'), { poolSize: 1 });
    try {
      expect(await encrypted(tls.adminUrl)).toEqual([false]);
    } finally {
      await store.close();
    }
  });

  it('verify-full: a certificate no authority vouches for is refused, in one line without the password', async () => {
    const url = withSslMode(await tls.createDatabase('verify_me'), 'verify-full');
    const error = await PostgresStore.open(url, { poolSize: 1 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/verify_me: \S+/);
    expect((error as Error).message).not.toContain('s3cr3t');
  });

  it('verify-full with sslrootcert naming the authority (here the certificate itself): verified and encrypted', async () => {
    const url = new URL(withSslMode(await tls.createDatabase(), 'verify-full'));
    url.searchParams.set('sslrootcert', tls.certificate!);
    const store = await PostgresStore.open(url.toString(), { poolSize: 1 });
    try {
      expect(await encrypted(tls.adminUrl)).toEqual([true]);
    } finally {
      await store.close();
    }
  });

  it('require on a server without TLS: refused, not silently in clear text', async () => {
    const url = withSslMode(await plain.createDatabase('no_tls'), 'require');
    const error = await PostgresStore.open(url, { poolSize: 1 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/no_tls: /);
  });

  it('a URL that names uselibpqcompat itself is left as it is', () => {
    const url = 'postgres://u@h/db?sslmode=require&uselibpqcompat=false';
    expect(libpqConnectionString(url)).toBe(url);
    expect(libpqConnectionString('postgres://u@h/db')).toBe('postgres://u@h/db');
    expect(libpqConnectionString('postgres://u@h/db?sslmode=require')).toBe(
      'postgres://u@h/db?sslmode=require&uselibpqcompat=true',
    );
  });
});
