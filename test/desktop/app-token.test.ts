// The app's own review token against a real service: identified by the id the app was given when
// it created it, never by its name, so a user's token of the same name and another installation's
// token both survive (issue 14, Security 1).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../desktop/main/connection.ts';
import { CredentialStore } from '../../desktop/main/credential-store.ts';
import { APP_TOKEN_NAME } from '../../desktop/shared/ipc-contract.ts';
import { startTestService, type TestService } from '../support/test-service.ts';
import { fakeSafeStorage, type FakeSafeStorage } from './support/fake-safe-storage.ts';

describe('the app token', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ logLevel: 'silent' });
  });
  afterAll(async () => svc?.close());

  const install = (
    storage: FakeSafeStorage = fakeSafeStorage(),
    file = path.join(mkdtempSync(path.join(os.tmpdir(), 'diff-review-apptoken-')), 'connection.json'),
  ) => {
    const credentials = new CredentialStore({ file, safeStorage: storage });
    const connection = new Connection({
      credentials,
      startBuiltIn: async () => {
        throw new Error('not in this test');
      },
      onChange: () => {},
      log: () => {},
    });
    return { connection, credentials, file, storage };
  };
  const named = async () => {
    const { tokens } = await svc.client(svc.dashboardToken).listTokens();
    return tokens
      .filter((t) => t.name === APP_TOKEN_NAME)
      .map((t) => t.id)
      .sort();
  };
  const connect = (connection: Connection) =>
    connection.connect({ mode: 'remote', url: svc.url, dashboardToken: svc.dashboardToken });

  it("never revokes a token of the same name it did not create (a user's own, another install's)", async () => {
    const users = await svc.client(svc.dashboardToken).createToken({ name: APP_TOKEN_NAME });
    const a = install();
    const b = install();
    await connect(a.connection);
    await connect(b.connection);
    expect(a.connection.appTokenId).not.toBe(users.id);
    expect(await named()).toEqual([users.id, a.connection.appTokenId, b.connection.appTokenId].sort());
    // Both installations keep working, request after request, without revoking each other.
    for (let i = 0; i < 3; i++) {
      await a.connection.withReviews((client) => client.listReviews());
      await b.connection.withReviews((client) => client.listReviews());
      await connect(a.connection);
      await connect(b.connection);
    }
    expect(await named()).toEqual([users.id, a.connection.appTokenId, b.connection.appTokenId].sort());
    await svc.client(users.token).listReviews(); // the user's token still works
    await a.connection.close();
    await b.connection.close();
  });

  it('keeps the id beside the secret and reuses the token after a restart', async () => {
    const first = install();
    await connect(first.connection);
    const id = first.connection.appTokenId;
    expect(first.credentials.appToken(svc.url)).toMatchObject({ id });
    await first.connection.close();
    const again = install(first.storage, first.file);
    await again.connection.start();
    expect(again.connection.appTokenId).toBe(id);
    await again.connection.close();
  });

  it('adopts a secret stored by an older version (no id) by its prefix, and revokes none by name', async () => {
    const dashboard = svc.client(svc.dashboardToken);
    const old = await dashboard.createToken({ name: APP_TOKEN_NAME, expires_in_days: null });
    const stranger = await dashboard.createToken({ name: APP_TOKEN_NAME });
    const storage = fakeSafeStorage();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'diff-review-apptoken-')), 'connection.json');
    // The settings file as the previous version wrote it: the secret alone, under the URL.
    const seed = new CredentialStore({ file, safeStorage: storage });
    seed.saveConnection({ mode: 'remote', url: svc.url }, svc.dashboardToken);
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    settings.secrets = storage
      .encryptString(JSON.stringify({ dashboardToken: svc.dashboardToken, appTokens: { [svc.url]: old.token } }))
      .toString('base64');
    writeFileSync(file, JSON.stringify(settings));
    const legacy = install(storage, file);
    await legacy.connection.start();
    expect(legacy.connection.appTokenId).toBe(old.id);
    expect(await named()).toEqual(expect.arrayContaining([old.id, stranger.id]));
    await legacy.connection.close();
  });

  it('when its own token was revoked, makes a new one and leaves the others alone', async () => {
    const users = await svc.client(svc.dashboardToken).createToken({ name: APP_TOKEN_NAME });
    const { connection } = install();
    await connect(connection);
    const before = connection.appTokenId!;
    await svc.client(svc.dashboardToken).deleteToken(before);
    await connection.withReviews((client) => client.listReviews()); // 401 → a new token → retried
    expect(connection.appTokenId).not.toBe(before);
    expect(await named()).toEqual(expect.arrayContaining([users.id, connection.appTokenId]));
    await connection.close();
  });
});
