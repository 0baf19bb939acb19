// The service's refusals in the app's own words (issue 14): a real service refuses a token name
// and then rate-limits; the window gets what happened and what to do, the log keeps the
// service's text.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from '../../service/index.ts';
import { RENDERER_URL } from '../../desktop/main/app-protocol.ts';
import type { Connection } from '../../desktop/main/connection.ts';
import { createIpcRouter } from '../../desktop/main/ipc-router.ts';
import type { ReviewWatcher } from '../../desktop/main/review-watcher.ts';
import { serviceErrorWording } from '../../desktop/main/service-error-wording.ts';
import { ipcHandlers, remoteConnection } from './support/main-parts.ts';

const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), `diff-review-${prefix}-`));
const frame = { url: RENDERER_URL, parent: null };

describe("the service's refusals, in the app's words", () => {
  let service: Service;
  let connection: Connection;
  const logged: { level: string; message: string; details?: Record<string, unknown> }[] = [];
  let router: ReturnType<typeof createIpcRouter>;

  beforeAll(async () => {
    service = await createService({
      dataDir: tempDir('errors'),
      port: 0,
      logLevel: 'silent',
      rateLimits: { tokens: 4 },
    });
    connection = remoteConnection();
    const dashboardToken = readFileSync(service.dashboardTokenFile!, 'utf8').trim();
    await connection.connect({ mode: 'remote', url: service.url, dashboardToken });
    const handlers = ipcHandlers({
      connection,
      watcher: { watch: () => {}, stopAll: () => {} } as unknown as ReviewWatcher,
    });
    router = createIpcRouter({
      handlers,
      rendererUrl: RENDERER_URL,
      log: (level, message, details) => logged.push({ level, message, details }),
    });
  });
  afterAll(async () => {
    await connection?.close();
    await service?.close();
  });

  it('a name over 100 characters: the field and its rule, not the schema validator', async () => {
    const name = 'n'.repeat(101);
    const result = await router.dispatch('tokens:create', frame, [
      { name, scopes: ['reviews:read'], expiresInDays: 7 },
    ]);
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'api',
        status: 400,
        code: 'invalid_request',
        field: 'name',
        message: 'Give the token a name of 1 to 100 characters.',
      },
    });
    expect(logged.at(-1)).toMatchObject({
      level: 'warn',
      details: { channel: 'tokens:create', status: 400, serviceMessage: expect.stringMatching(/name/) },
    });
  });

  it('too many requests: says so, with when to try again', async () => {
    let result: Awaited<ReturnType<typeof router.dispatch>> | undefined;
    for (let i = 0; i < 10 && (!result || result.ok); i++) result = await router.dispatch('tokens:list', frame, []);
    expect(result).toMatchObject({ ok: false, error: { kind: 'api', status: 429, code: 'rate_limited' } });
    const error = (result as { error: { message: string; retryAfterSeconds?: number } }).error;
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.message).toBe(
      `The service is answering too many requests right now. Try again in ${error.retryAfterSeconds} second${error.retryAfterSeconds === 1 ? '' : 's'}.`,
    );
    expect(error.message).not.toMatch(/Retry-After/);
  });

  it('words every refusal by request: the queue, a gone review or token, a finished job, a failure', () => {
    expect(serviceErrorWording({ status: 503, code: 'queue_full', retryAfterSeconds: 5 }, 'reviews:submitDiff')).toBe(
      'The service has too many reviews waiting. Try again in 5 seconds.',
    );
    expect(serviceErrorWording({ status: 404, code: 'not_found' }, 'tokens:revoke')).toMatch(/already revoked/);
    expect(serviceErrorWording({ status: 404, code: 'not_found' }, 'reviews:get')).toMatch(/review no longer exists/);
    expect(serviceErrorWording({ status: 409, code: 'conflict' }, 'reviews:cancel')).toMatch(/already finished/);
    expect(serviceErrorWording({ status: 413, code: 'diff_too_large' }, 'reviews:submitDiff')).toMatch(
      /limit of 1,000,000 bytes/,
    );
    expect(serviceErrorWording({ status: 500, code: 'internal_error' })).toMatch(/^The service failed/);
    expect(serviceErrorWording({ status: 400, code: 'invalid_request', field: 'base_commit' })).toMatch(/commit id/);
  });
});
