// The `diff-review` command line as a user runs it: a real child process on a real data dir.
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../service/client/index.ts';
import { CLI, exited, killMidBurst, killServed, serve } from '../support/cli-process.ts';
import { DEBUGGER_DIFF } from '../support/test-service.ts';
import { tempDirs } from '../support/temp-dirs.ts';

const run = promisify(execFile);
const dataDir = tempDirs('cli');
afterEach(killServed); // runs before the folders are removed

describe('diff-review CLI', () => {
  it('serve writes a 0600 dashboard-token file, logs its path but never the secret, and stops on SIGTERM with exit 0', async () => {
    const dir = await dataDir();
    const { child, url, output } = await serve(dir, { DIFF_REVIEW_LOG_LEVEL: 'info' });
    const file = path.join(dir, 'dashboard-token');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const secret = (await readFile(file, 'utf8')).trim();
    expect(secret).toMatch(/^drv_[0-9A-Za-z]{38,}$/);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // loopback by default
    const tokens = await createClient({ baseUrl: url, token: secret }).listTokens();
    expect(tokens).toEqual({ tokens: [] });
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(output()).toContain(file);
    expect(output()).not.toContain(secret);
  });

  it('token create goes through the running service, prints only the secret on stdout, and the token works', async () => {
    const dir = await dataDir();
    const { url } = await serve(dir);
    const { stdout, stderr } = await run(process.execPath, [
      CLI,
      'token',
      'create',
      '--name',
      'ci',
      '--scopes',
      'reviews:read',
      '--expires-in-days',
      '7',
      '--data-dir',
      dir,
    ]);
    const secret = stdout.trim();
    expect(secret).toMatch(/^drv_/);
    expect(stderr).toContain('"ci"');
    expect(stderr).not.toContain(secret);
    const client = createClient({ baseUrl: url, token: secret, retry: 0 });
    expect(await client.listReviews()).toEqual({ reviews: [], next_cursor: null, total: 0 });
    await expect(client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' })).rejects.toMatchObject({
      status: 403,
      error: 'insufficient_scope',
    });
  });

  it('token create works on a stopped service too, and bad flags fail with a clear message', async () => {
    const dir = await dataDir();
    const { stdout } = await run(process.execPath, [CLI, 'token', 'create', '--name', 'offline', '--data-dir', dir]);
    const secret = stdout.trim();
    const { url } = await serve(dir);
    expect((await createClient({ baseUrl: url, token: secret }).listReviews()).reviews).toEqual([]);
    const bad = await run(process.execPath, [
      CLI,
      'token',
      'create',
      '--name',
      'x',
      '--expires-in-days',
      '366',
      '--data-dir',
      dir,
    ]).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--expires-in-days');
  });

  it('token create on a stopped service refuses the names the API refuses (controls, whitespace only, over 100)', async () => {
    const dir = await dataDir();
    // (a NUL cannot travel in argv; U+0001 stands for the C0 controls)
    for (const name of ['a\u0001b', '   ', 'x'.repeat(101), 'a\u202eb']) {
      const bad = await run(process.execPath, [CLI, 'token', 'create', '--name', name, '--data-dir', dir]).catch(
        (e) => e,
      );
      expect(bad.code, JSON.stringify(name)).toBe(1);
      expect(bad.stderr).toContain('--name');
    }
    const { stdout } = await run(process.execPath, [
      CLI,
      'token',
      'create',
      '--name',
      'x'.repeat(100),
      '--data-dir',
      dir,
    ]);
    expect(stdout.trim()).toMatch(/^drv_/);
  });

  it('rotate-dashboard refuses while the service runs, and replaces the secret when it is stopped', async () => {
    const dir = await dataDir();
    const first = await serve(dir);
    const old = (await readFile(path.join(dir, 'dashboard-token'), 'utf8')).trim();
    const busy = await run(process.execPath, [CLI, 'token', 'rotate-dashboard', '--data-dir', dir]).catch((e) => e);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/in use by another Diff Review service \(pid \d+/);
    first.child.kill('SIGTERM');
    await exited(first.child);

    await run(process.execPath, [CLI, 'token', 'rotate-dashboard', '--data-dir', dir]);
    const fresh = (await readFile(path.join(dir, 'dashboard-token'), 'utf8')).trim();
    expect(fresh).not.toBe(old);
    const { url } = await serve(dir);
    await expect(createClient({ baseUrl: url, token: old, retry: 0 }).listTokens()).rejects.toMatchObject({
      status: 401,
    });
    expect(await createClient({ baseUrl: url, token: fresh }).listTokens()).toEqual({ tokens: [] });
  });

  it('DIFF_REVIEW_DASHBOARD_TOKEN sets the dashboard token instead of the file; a short one is refused', async () => {
    const dir = await dataDir();
    const explicit = 'my-own-dashboard-token-of-at-least-32-chars';
    const { url } = await serve(dir, { DIFF_REVIEW_DASHBOARD_TOKEN: explicit });
    await expect(stat(path.join(dir, 'dashboard-token'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await createClient({ baseUrl: url, token: explicit }).listTokens()).toEqual({ tokens: [] });

    const other = await dataDir();
    const short = await run(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', other], {
      env: { ...process.env, DIFF_REVIEW_DASHBOARD_TOKEN: 'too-short' },
    }).catch((e) => e);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 32 printable characters');
  });

  it('kill -9 in the middle of a burst of creates loses no acknowledged job', async () => {
    const dir = await dataDir();
    const { token, acknowledged } = await killMidBurst(dir, async ({ url, token }, i) => {
      const client = createClient({ baseUrl: url, token, retry: 0 });
      return (await client.createReview({ diff: DEBUGGER_DIFF, repository: `r${i}` })).review_id;
    });

    // The store file is whole JSON, and every acknowledged job is in it and reaches a terminal state.
    JSON.parse(await readFile(path.join(dir, 'store.json'), 'utf8'));
    const restarted = await serve(dir);
    const after = createClient({ baseUrl: restarted.url, token });
    for (const id of acknowledged.values()) {
      const job = await after.waitForReview(id, { timeoutMs: 20_000, pollIntervalMs: 25 });
      expect(job.status).toBe('completed');
    }
  });
});
