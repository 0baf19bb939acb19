// Which service the extension talks to, with which token: the configured URL with the token the
// user set, or the bundled service with a review token the extension created for itself. Tokens
// live in SecretStorage only, one per service.
import type * as vscode from 'vscode';
import { ApiError, createClient, NetworkError, type DiffReviewClient } from '../../service/client/index.ts';
import type { BundledService, BundledServiceEndpoint } from './bundled-service.ts';
import type { ReviewLog } from './review-runner.ts';

/** A token as kept in SecretStorage. `provisioned`: created by the extension on the bundled service. */
interface StoredToken {
  token: string;
  provisioned: boolean;
  /** A provisioned token's id (to revoke it) and expiry (to renew it). */
  id?: string;
  expiresAt?: string | null;
}

/** The extension's own token on the bundled service lasts this long, and is renewed a week before it ends. */
const BUNDLED_TOKEN_DAYS = 30;
const RENEW_BEFORE_MS = 7 * 86_400_000;
const TOKEN_NAME = 'VS Code extension';

export interface ServiceConnection {
  client: DiffReviewClient;
  /** "the bundled service" or the URL, for messages. */
  label: string;
  /** The service's base URL. */
  url: string;
  bundled: boolean;
  /** The bundled service's start (ms), when this connect started it. */
  serviceStartMs?: number;
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
  readonly #secrets: vscode.SecretStorage;
  readonly #bundled: BundledService;
  readonly #log: ReviewLog;
  /** The extension's token being made, shared by the reviews that need it at once. */
  #provisioning: Promise<StoredToken> | undefined;

  constructor(secrets: vscode.SecretStorage, bundled: BundledService, log: ReviewLog) {
    this.#secrets = secrets;
    this.#bundled = bundled;
    this.#log = log;
  }

  /** The client for the service the settings name; starts the bundled one and makes its token when needed. */
  async connect(serviceUrl: string, requestTimeoutMs: number, signal: AbortSignal): Promise<ServiceConnection> {
    if (serviceUrl !== '') {
      const stored = await this.#stored(serviceUrl);
      if (!stored)
        throw new MissingTokenError(
          `No API token is set for ${serviceUrl}. Run "Diff Review: Set API Token" with a review token of that service.`,
        );
      return {
        client: this.#client(serviceUrl, stored.token, requestTimeoutMs),
        label: serviceUrl,
        url: serviceUrl,
        bundled: false,
      };
    }
    const endpoint = await this.#bundled.endpoint();
    const serviceStartMs = this.#bundled.takeStartMs();
    let stored = await this.#stored('bundled');
    if (!stored || (stored.provisioned && expiresSoon(stored))) {
      // One token for reviews that connect at once (one superseding another, review on save):
      // each making its own would leave all but the stored one behind.
      const replaced = stored;
      this.#provisioning ??= this.#renewToken(endpoint, replaced, requestTimeoutMs).finally(() => {
        this.#provisioning = undefined;
      });
      stored = await this.#provisioning;
      signal.throwIfAborted();
    }
    return {
      client: this.#client(endpoint.url, stored.token, requestTimeoutMs),
      label: serviceLabel(''),
      url: endpoint.url,
      bundled: true,
      ...(serviceStartMs === undefined ? {} : { serviceStartMs }),
    };
  }

  /** Makes the extension's token on the bundled service, then revokes the one it replaces and any left behind. */
  async #renewToken(
    endpoint: BundledServiceEndpoint,
    replaced: StoredToken | undefined,
    requestTimeoutMs: number,
  ): Promise<StoredToken> {
    // Not the review's signal: another review may be waiting for this token too.
    const made = await this.#provision(
      endpoint.url,
      await endpoint.dashboardToken(),
      requestTimeoutMs,
      AbortSignal.timeout(requestTimeoutMs),
    );
    if (replaced) await this.#revoke(replaced);
    await this.#revokeLeftBehind();
    return made;
  }

  /**
   * After a 401 from the bundled service: a token the extension made itself is made again (the
   * service's data may have been reset); one the user set is kept, so the user sees the error.
   */
  async recoverBundledToken(): Promise<boolean> {
    const stored = await this.#stored('bundled');
    if (!stored?.provisioned) return false;
    await this.#secrets.delete(secretKey('bundled'));
    this.#log.warn("The bundled service refused the extension's own token; making a new one.");
    return true;
  }

  /**
   * After the bundled service could not be reached: when it was another window's, that window has
   * closed; true means the next connect starts this window's own.
   */
  takeOverBundledService(): boolean {
    const forgotten = this.#bundled.forgetOtherWindow();
    if (forgotten) this.#log.info("The other window's bundled service stopped answering; starting this window's own.");
    return forgotten;
  }

  /** Stores a token for the service the settings name (a token the extension made for itself is revoked). */
  async setToken(serviceUrl: string, token: string): Promise<void> {
    const replaced = serviceUrl === '' ? await this.#stored('bundled') : undefined;
    if (replaced) await this.#revoke(replaced);
    await this.#secrets.store(
      secretKey(serviceUrl || 'bundled'),
      JSON.stringify({ token, provisioned: false } satisfies StoredToken),
    );
    this.#log.info(`Stored an API token for ${serviceLabel(serviceUrl)}.`);
  }

  /** Forgets the token of the service the settings name; the bundled service's own is revoked there too. */
  async signOut(serviceUrl: string): Promise<boolean> {
    const stored = await this.#stored(serviceUrl || 'bundled');
    const had = stored !== undefined;
    if (stored && serviceUrl === '') await this.#revoke(stored);
    await this.#secrets.delete(secretKey(serviceUrl || 'bundled'));
    this.#log.info(`Signed out of ${serviceLabel(serviceUrl)}.`);
    return had;
  }

  #client(baseUrl: string, token: string, timeoutMs: number): DiffReviewClient {
    return createClient({ baseUrl, token, timeoutMs, retry: 2, maxRetryAfterMs: 10_000, userAgent: USER_AGENT });
  }

  async #provision(url: string, dashboardToken: string, timeoutMs: number, signal: AbortSignal): Promise<StoredToken> {
    const created = await this.#client(url, dashboardToken, timeoutMs).createToken(
      { name: TOKEN_NAME, expires_in_days: BUNDLED_TOKEN_DAYS },
      { signal },
    );
    const stored: StoredToken = {
      token: created.token,
      provisioned: true,
      id: created.id,
      expiresAt: created.expires_at,
    };
    await this.#secrets.store(secretKey('bundled'), JSON.stringify(stored));
    this.#log.info(
      `Created the extension's review token ${created.id} on the bundled service (expires ${created.expires_at ?? 'never'}).`,
    );
    return stored;
  }

  /**
   * Revokes a token the extension made on the bundled service, so that none is left behind when it
   * is replaced. Best effort: a failure is logged, and the token still expires.
   */
  async #revoke(stored: StoredToken): Promise<void> {
    if (!stored.provisioned) return;
    try {
      const endpoint = await this.#bundled.endpoint();
      const dashboard = this.#client(endpoint.url, await endpoint.dashboardToken(), 10_000);
      // Stored by an older version without its id: found by its prefix.
      const id =
        stored.id ??
        (await dashboard.listTokens()).tokens.find(
          (token) => token.name === TOKEN_NAME && stored.token.startsWith(token.prefix),
        )?.id;
      if (id)
        await dashboard
          .deleteToken(id)
          .catch((error: unknown) =>
            error instanceof ApiError && error.status === 404 ? undefined : Promise.reject(error),
          );
      this.#log.info(`Revoked the extension's review token ${id ?? '(already gone)'} on the bundled service.`);
    } catch (error) {
      this.#log.warn(
        `Could not revoke the extension's old token on the bundled service (tried again with the next one it makes): ${error instanceof Error ? error.message : String(error)}`,
      );
      if (stored.id) await this.#leftBehind([...(await this.#leftBehind()), stored.id]);
    }
  }

  /**
   * Tokens whose revoke failed (the service had gone, e.g. another window's that closed), revoked
   * once the extension reaches the service again (when it makes its next token).
   */
  async #revokeLeftBehind(): Promise<void> {
    const ids = await this.#leftBehind();
    if (ids.length === 0) return;
    await this.#leftBehind([]);
    for (const id of ids) await this.#revoke({ token: '', provisioned: true, id });
  }

  /** The ids of tokens left behind; with `ids`, stores those instead. */
  async #leftBehind(ids?: string[]): Promise<string[]> {
    if (ids) {
      await this.#secrets.store(LEFT_BEHIND_KEY, JSON.stringify(ids));
      return ids;
    }
    try {
      const parsed = JSON.parse((await this.#secrets.get(LEFT_BEHIND_KEY)) ?? '[]') as unknown;
      return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }

  async #stored(target: string): Promise<StoredToken | undefined> {
    const raw = await this.#secrets.get(secretKey(target));
    if (raw === undefined || raw === '') return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredToken>;
      if (typeof parsed.token === 'string' && parsed.token !== '') {
        return {
          token: parsed.token,
          provisioned: parsed.provisioned === true,
          id: parsed.id,
          expiresAt: parsed.expiresAt,
        };
      }
    } catch {
      // Not JSON: a bare token (an older version, or set by hand).
    }
    return { token: raw, provisioned: false };
  }
}

const secretKey = (target: string) => `diffReview.token:${target}`;
const LEFT_BEHIND_KEY = 'diffReview.tokensToRevoke';

/** Due for renewal: ends within a week, or made by an older version without an expiry (no `expiresAt` at all). */
const expiresSoon = (stored: StoredToken): boolean =>
  stored.expiresAt === undefined ||
  (typeof stored.expiresAt === 'string' && Date.parse(stored.expiresAt) - Date.now() < RENEW_BEFORE_MS);

/** The service could not be reached at all (nothing listens, or the connection broke). */
export const isUnreachable = (error: unknown): boolean => error instanceof NetworkError;

/** A 401 from the service. */
export const isUnauthorized = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
