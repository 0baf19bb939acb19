// The built-in service's process protocol (main/service-process.ts) under Node: the two ends
// joined by a stand-in port, the real service started on the far side. That Electron's
// utilityProcess carries it, and that the window stays responsive, needs the Electron binary.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../service/client/index.ts';
import { Connection } from '../../desktop/main/connection.ts';
import { CredentialStore } from '../../desktop/main/credential-store.ts';
import { type BuiltInService, startBuiltInService } from '../../desktop/main/service-launcher.ts';
import {
  builtInFromProcess,
  type FromService,
  serveOverParentPort,
  type ToService,
} from '../../desktop/main/service-process.ts';
import type { ConnectionState } from '../../desktop/shared/ipc-contract.ts';
import { fakeSafeStorage } from './support/fake-safe-storage.ts';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'diff-review-process-'));

/** Both ends of a utilityProcess, as Electron shapes their messages; `exit` ends the "process". */
function standInProcess(
  start = (options: { userDataDir: string }) =>
    startBuiltInService({ ...options, preferredPort: 0, service: { logLevel: 'warn' } }),
) {
  const toChild = new EventEmitter();
  const toParent = new EventEmitter();
  const sent: FromService[] = [];
  let alive = true;
  const exit = (code: number) => {
    if (!alive) return;
    alive = false;
    toParent.emit('exit', code);
  };
  serveOverParentPort(
    {
      on: (_event, listener) => toChild.on('message', listener),
      postMessage: (message) => {
        sent.push(message);
        setImmediate(() => toParent.emit('message', message));
      },
    },
    start,
    () => exit(0),
  );
  const child = {
    postMessage: (message: ToService) => setImmediate(() => toChild.emit('message', { data: message })),
    // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's listener type
    on: (event: string, listener: (...args: any[]) => void) => toParent.on(event, listener),
    kill: () => {
      exit(1);
      return true;
    },
  };
  return { child, sent, exit };
}

describe('the built-in service in its own process', () => {
  it('starts the real service when asked, answers its address and token, and stops when asked', async () => {
    const { child, sent } = standInProcess();
    const service = await builtInFromProcess(child, tempDir(), () => {});
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tokens = await createClient({ baseUrl: service.url, token: service.dashboardToken, retry: 0 }).listTokens();
    expect(tokens.tokens).toEqual([]);
    await service.close();
    expect(sent.map((m) => m.type)).toEqual(['started', 'stopped']);
    await expect(createClient({ baseUrl: service.url, retry: 0, timeoutMs: 1000 }).health()).rejects.toThrow();
  });

  it('reports a service that could not start, and a process that ends on its own', async () => {
    const failing = standInProcess(async () => {
      throw new Error('the data folder is not writable');
    });
    await expect(builtInFromProcess(failing.child, tempDir(), () => {})).rejects.toThrow(
      'the data folder is not writable',
    );

    const exits: number[] = [];
    const real: BuiltInService[] = [];
    const crashing = standInProcess(async (options) => {
      real.push(await startBuiltInService({ ...options, preferredPort: 0, service: { logLevel: 'warn' } }));
      return real[0]!;
    });
    await builtInFromProcess(crashing.child, tempDir(), (code) => exits.push(code));
    crashing.exit(9);
    expect(exits).toEqual([9]);
    await real[0]!.close();
  });

  it('after the process ended, the connection starts a new service and reconnects', async () => {
    const userDataDir = tempDir();
    const started: BuiltInService[] = [];
    const states: ConnectionState[] = [];
    const connection = new Connection({
      credentials: new CredentialStore({
        file: path.join(userDataDir, 'connection.json'),
        safeStorage: fakeSafeStorage(),
      }),
      startBuiltIn: async () => {
        const service = await startBuiltInService({ userDataDir, preferredPort: 0, service: { logLevel: 'warn' } });
        started.push(service);
        return service;
      },
      onChange: (state) => states.push(state),
      log: () => {},
    });
    try {
      await connection.connect({ mode: 'built-in' });
      await started[0]!.close(); // as if its process had died
      await connection.builtInExited();
      expect(started).toHaveLength(2);
      expect(connection.state).toMatchObject({ phase: 'connected', mode: 'built-in', url: started[1]!.url });
      await connection.withReviews((client) => client.listReviews());
    } finally {
      await connection.close();
    }
  });
});
