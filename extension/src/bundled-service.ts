// The bundled service: with no service URL set, the extension runs createService in its own
// process, on a free loopback port, with its data in the extension's global storage. No vscode
// import: tested under Node, also from the built bundle.
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { createService, dashboardTokenFile, type Service } from '../../service/index.ts';
import { liveLockOwner, readLock, type LockInfo } from '../../service/store/data-dir-lock.ts';
import type { ReviewLog } from './review-runner.ts';

/**
 * The loopback ports the bundled service listens on, tried from a random one: a known range, so
 * that package.json's `remote.portsAttributes` default keeps remote windows (SSH, WSL, Codespaces)
 * from auto-forwarding it. All busy: any free port (which may then be forwarded).
 */
export const BUNDLED_PORTS = { first: 47110, last: 47139 } as const;

/** A range of loopback ports, both ends included. */
export interface PortRange {
  first: number;
  last: number;
}

export interface BundledServiceEndpoint {
  url: string;
  /** Reads the dashboard token's secret (to create the extension's own review token). */
  dashboardToken(): Promise<string>;
}

/**
 * Starts the service on first use and keeps it until disposed. When another VS Code window already
 * runs it on the same data dir (the data dir allows one service), this window uses that one.
 */
export class BundledService {
  readonly dataDir: string;
  readonly #log: ReviewLog;
  #starting: Promise<BundledServiceEndpoint> | undefined;
  #service: Service | undefined;
  /** The lock of the other window's service this window uses, while that window holds the data dir. */
  #borrowed: LockInfo | undefined;
  #disposed = false;
  readonly #ports: PortRange;
  /** How long this window's service took to start, until takeStartMs() reports it. */
  #unreportedStartMs: number | undefined;

  /** `ports`: the range to listen in (BUNDLED_PORTS; tests of the choice give one no window uses). */
  constructor(dataDir: string, log: ReviewLog, ports: PortRange = BUNDLED_PORTS) {
    this.dataDir = dataDir;
    this.#log = log;
    this.#ports = ports;
  }

  /** The running service's endpoint, starting it when needed. */
  endpoint(): Promise<BundledServiceEndpoint> {
    // After deactivation nothing would stop a service started now.
    if (this.#disposed)
      return Promise.reject(new Error('Diff Review has been deactivated; reload the window to review again.'));
    // The other window closed: its port is free, and may by now be another program's (another
    // Diff Review's service would refuse this data dir's tokens). Its lock says so before any request.
    if (this.#borrowed && !sameLock(liveLockOwner(this.dataDir), this.#borrowed)) {
      this.#log.info("The other window's bundled service has stopped; starting this window's own.");
      this.#borrowed = undefined;
      this.#starting = undefined;
    }
    this.#starting ??= this.#start().catch((error: unknown) => {
      this.#starting = undefined; // the next review tries again
      throw error;
    });
    return this.#starting;
  }

  /** How long the service took to start (ms), once, after this window started it; else undefined. */
  takeStartMs(): number | undefined {
    const ms = this.#unreportedStartMs;
    this.#unreportedStartMs = undefined;
    return ms;
  }

  /**
   * Forgets a service of another window that stopped answering (that window closed), so the next
   * call starts one here. False when there was none to forget (this window's own, or none yet).
   */
  forgetOtherWindow(): boolean {
    if (this.#service || !this.#starting) return false;
    this.#starting = undefined;
    this.#borrowed = undefined;
    return true;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    // A start in progress is waited for, so that it is stopped too.
    await this.#starting?.catch(() => undefined);
    const service = this.#service;
    this.#service = undefined;
    this.#starting = undefined;
    if (service) {
      await service.close();
      this.#log.info('Stopped the bundled service.');
    }
  }

  async #start(): Promise<BundledServiceEndpoint> {
    const started = Date.now();
    try {
      const service = await this.#listen();
      this.#service = service;
      this.#unreportedStartMs = Date.now() - started;
      this.#log.info(
        `Started the bundled service at ${service.url} (data in ${this.dataDir}, ${this.#unreportedStartMs} ms).`,
      );
      const file = service.dashboardTokenFile;
      return { url: service.url, dashboardToken: () => readSecretFile(file) };
    } catch (error) {
      const lock = readLock(this.dataDir);
      if (error instanceof Error && error.name === 'DataDirBusyError' && lock?.url) {
        this.#log.info(
          `The bundled service already runs in another window (pid ${lock.pid}) at ${lock.url}; using it.`,
        );
        this.#borrowed = lock;
        return { url: lock.url, dashboardToken: () => readSecretFile(dashboardTokenFile(this.dataDir)) };
      }
      throw error;
    }
  }

  /** Starts the service on the first free port of its range (BUNDLED_PORTS), from a random one, else on any. */
  async #listen(): Promise<Service> {
    const { first, last } = this.#ports;
    const count = last - first + 1;
    const offset = Math.floor(Math.random() * count);
    const ports = [...Array.from({ length: count }, (_, index) => first + ((offset + index) % count)), 0];
    for (const port of ports) {
      try {
        return await createService({
          dataDir: this.dataDir,
          port,
          host: '127.0.0.1',
          logLevel: 'warn',
          logStream: this.#serviceLog(),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
      }
    }
    throw new Error('unreachable: port 0 either listens or throws');
  }

  /** The service's JSON log lines (warnings and errors only; it never logs a token or a diff). */
  #serviceLog(): Writable {
    return new Writable({
      write: (chunk, _encoding, done) => {
        for (const line of String(chunk).split('\n')) {
          if (line.trim() === '') continue;
          try {
            const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
            const text = `[service] ${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
            if ((entry.level ?? 50) >= 50) this.#log.error(text);
            else this.#log.warn(text);
          } catch {
            this.#log.warn(`[service] ${line}`);
          }
        }
        done();
      },
    });
  }
}

/** The same taking of the data dir's lock (its nonce, or for an older lock its pid and address). */
const sameLock = (now: LockInfo | undefined, then: LockInfo): boolean =>
  now !== undefined && (then.nonce ? now.nonce === then.nonce : now.pid === then.pid && now.url === then.url);

async function readSecretFile(file: string | undefined): Promise<string> {
  if (!file)
    throw new Error(
      'The bundled service has no dashboard-token file (DIFF_REVIEW_DASHBOARD_TOKEN is set); set an API token instead.',
    );
  return (await readFile(file, 'utf8')).trim();
}
