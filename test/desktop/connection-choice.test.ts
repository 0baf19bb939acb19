// The setup form's choice, checked in main before anything is sent: a dashboard token never goes
// over cleartext http:// to another machine unless the user said so (issue 14, Security 2).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Connection } from '../../desktop/main/connection.ts';
import { CredentialStore } from '../../desktop/main/credential-store.ts';
import type { ConnectionState } from '../../desktop/shared/ipc-contract.ts';
import { fakeSafeStorage } from './support/fake-safe-storage.ts';
import { isLoopbackHost, validateChoice } from '../../desktop/main/connection-choice.ts';
import { toIpcError } from '../../desktop/main/ipc-errors.ts';

const TOKEN = 'd'.repeat(40);
const remote = (url: string, allowCleartext?: boolean) =>
  validateChoice({
    mode: 'remote',
    url,
    dashboardToken: TOKEN,
    ...(allowCleartext === undefined ? {} : { allowCleartext }),
  });

describe('connection choice', () => {
  it('refuses http:// to a host that is not this machine, naming the reason', () => {
    for (const url of [
      'http://review.example.com:7411',
      'http://10.0.0.5:7411',
      'http://[fe80::1]:7411',
      'http://127.0.0.1.nip.io',
      'http://localhost.evil.example',
    ]) {
      let error: unknown;
      try {
        remote(url);
      } catch (caught) {
        error = caught;
      }
      expect(error, url).toBeDefined();
      expect(toIpcError(error)).toMatchObject({ kind: 'invalid_input', field: 'url', code: 'cleartext' });
      expect(toIpcError(error).message).toMatch(/unencrypted|https/i);
    }
  });

  it('sends to http:// elsewhere once the user confirms, and to loopback or https:// without asking', () => {
    expect(remote('http://review.example.com:7411', true)).toEqual({
      mode: 'remote',
      url: 'http://review.example.com:7411',
      dashboardToken: TOKEN,
      allowCleartext: true,
    });
    expect(remote('https://review.example.com', true)).not.toHaveProperty('allowCleartext');
    for (const url of [
      'http://127.0.0.1:7411',
      'http://127.8.9.10',
      'http://localhost:7411',
      'http://[::1]:7411',
      'https://review.example.com',
    ]) {
      expect(remote(url).mode, url).toBe('remote');
    }
  });

  it('on start, a saved http:// address elsewhere reconnects only if its confirmation was saved with it', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'diff-review-saved-')), 'connection.json');
    const safeStorage = fakeSafeStorage();
    // As a version before the check saved it: no confirmation.
    new CredentialStore({ file, safeStorage }).saveConnection({ mode: 'remote', url: 'http://192.0.2.1:7411' }, TOKEN);
    const states: ConnectionState[] = [];
    const connection = (store: CredentialStore) =>
      new Connection({
        credentials: store,
        startBuiltIn: async () => {
          throw new Error('not here');
        },
        onChange: (state) => states.push(state),
        log: () => {},
        requestTimeoutMs: 300,
      });
    const first = connection(new CredentialStore({ file, safeStorage }));
    const state = await first.start();
    expect(state).toMatchObject({ phase: 'setup', lastUrl: 'http://192.0.2.1:7411' });
    expect((state as { reason?: string }).reason).toMatch(/unencrypted/);
    expect(states.map((s) => s.phase)).not.toContain('connecting');
    await first.close();

    // Confirmed in the form: saved with the choice, so the next start goes ahead without asking.
    const store = new CredentialStore({ file, safeStorage });
    store.saveConnection({ mode: 'remote', url: 'http://192.0.2.1:7411', allowCleartext: true }, TOKEN);
    expect(new CredentialStore({ file, safeStorage }).connection).toEqual({
      mode: 'remote',
      url: 'http://192.0.2.1:7411',
      allowCleartext: true,
    });
    const second = connection(new CredentialStore({ file, safeStorage }));
    await second.start();
    expect(states.map((s) => s.phase)).toContain('connecting');
    await second.close();
  });

  it('knows which host names are this machine', () => {
    expect(['127.0.0.1', '127.255.255.254', 'localhost', 'LOCALHOST', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(
      ['128.0.0.1', '10.0.0.1', 'localhost.example', '127.0.0.1.example', '[::2]', '0.0.0.0'].some(isLoopbackHost),
    ).toBe(false);
  });
});
