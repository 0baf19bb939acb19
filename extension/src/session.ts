// Which service the extension talks to, with which token: the configured URL with the token the
// user set, or the bundled service with a review token the extension created for itself. Tokens
// live in SecretStorage only, one per service.
import * as vscode from 'vscode';
import { ApiError, createClient, NetworkError, type DiffReviewClient } from '../../service/client/index.ts';
import type { BundledService } from './bundled-service.ts';
import type { ReviewLog } from './review-runner.ts';

/** A token as kept in SecretStorage. `provisioned`: created by the extension on the bundled service. */
interface StoredToken {
  token: string;
  provisioned: boolean;
}

export interface Connection {
  client: DiffReviewClient;
  /** "the bundled service" or the URL, for messages. */
  label: string;
  /** The service's base URL. */
  url: string;
  bundled: boolean;
}

/** No token is set for a configured service. */
export class MissingTokenError extends Error {
  override name = 'MissingTokenError';
}

export const USER_AGENT = 'diff-review-vscode/0.1.0';

/** The service, for messages: the configured URL, or "the bundled service" when none is set. */
export function serviceLabel(serviceUrl: string): string {
  return serviceUrl || 'the bundled service';
}

export class ServiceSession {
  private readonly secrets: vscode.SecretStorage;
  private readonly bundled: BundledService;
  private readonly log: ReviewLog;

  constructor(secrets: vscode.SecretStorage, bundled: BundledService, log: ReviewLog) {
    this.secrets = secrets;
    this.bundled = bundled;
    this.log = log;
  }

  /** The client for the service the settings name; starts the bundled one and makes its token when needed. */
  async connect(serviceUrl: string, requestTimeoutMs: number, signal: AbortSignal): Promise<Connection> {
    if (serviceUrl !== '') {
      const stored = await this.stored(serviceUrl);
      if (!stored) throw new MissingTokenError(`No API token is set for ${serviceUrl}. Run "Diff Review: Set API Token" with a review token of that service.`);
      return { client: this.client(serviceUrl, stored.token, requestTimeoutMs), label: serviceUrl, url: serviceUrl, bundled: false };
    }
    const endpoint = await this.bundled.endpoint();
    let stored = await this.stored('bundled');
    if (!stored) stored = await this.provision(endpoint.url, await endpoint.dashboardToken(), requestTimeoutMs, signal);
    return { client: this.client(endpoint.url, stored.token, requestTimeoutMs), label: serviceLabel(''), url: endpoint.url, bundled: true };
  }

  /**
   * After a 401 from the bundled service: a token the extension made itself is made again (the
   * service's data may have been reset); one the user set is kept, so the user sees the error.
   */
  async recoverBundledToken(): Promise<boolean> {
    const stored = await this.stored('bundled');
    if (!stored?.provisioned) return false;
    await this.secrets.delete(secretKey('bundled'));
    this.log.warn('The bundled service refused the extension\'s own token; making a new one.');
    return true;
  }

  /**
   * After the bundled service could not be reached: when it was another window's, that window has
   * closed; true means the next connect starts this window's own.
   */
  takeOverBundledService(): boolean {
    const forgotten = this.bundled.forgetOtherWindow();
    if (forgotten) this.log.info("The other window's bundled service stopped answering; starting this window's own.");
    return forgotten;
  }

  /** Stores a token for the service the settings name. */
  async setToken(serviceUrl: string, token: string): Promise<void> {
    await this.secrets.store(secretKey(serviceUrl || 'bundled'), JSON.stringify({ token, provisioned: false } satisfies StoredToken));
    this.log.info(`Stored an API token for ${serviceLabel(serviceUrl)}.`);
  }

  /** Forgets the token of the service the settings name. */
  async signOut(serviceUrl: string): Promise<boolean> {
    const had = (await this.stored(serviceUrl || 'bundled')) !== undefined;
    await this.secrets.delete(secretKey(serviceUrl || 'bundled'));
    this.log.info(`Signed out of ${serviceLabel(serviceUrl)}.`);
    return had;
  }

  private client(baseUrl: string, token: string, timeoutMs: number): DiffReviewClient {
    return createClient({ baseUrl, token, timeoutMs, retry: 2, maxRetryAfterMs: 10_000, userAgent: USER_AGENT });
  }

  private async provision(url: string, dashboardToken: string, timeoutMs: number, signal: AbortSignal): Promise<StoredToken> {
    const created = await this.client(url, dashboardToken, timeoutMs).createToken({ name: 'VS Code extension', expires_in_days: null }, { signal });
    const stored: StoredToken = { token: created.token, provisioned: true };
    await this.secrets.store(secretKey('bundled'), JSON.stringify(stored));
    this.log.info(`Created the extension's review token ${created.id} on the bundled service.`);
    return stored;
  }

  private async stored(target: string): Promise<StoredToken | undefined> {
    const raw = await this.secrets.get(secretKey(target));
    if (raw === undefined || raw === '') return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredToken>;
      if (typeof parsed.token === 'string' && parsed.token !== '') return { token: parsed.token, provisioned: parsed.provisioned === true };
    } catch {
      // Not JSON: a bare token (an older version, or set by hand).
    }
    return { token: raw, provisioned: false };
  }
}

const secretKey = (target: string) => `diffReview.token:${target}`;

/** The service could not be reached at all (nothing listens, or the connection broke). */
export const isUnreachable = (error: unknown): boolean => error instanceof NetworkError;

/** A 401 from the service. */
export const isUnauthorized = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
