// The app's one connection to a service: the built-in one or a remote one. It owns the dashboard
// token (never handed to the renderer) and the app's own review token (app-token.ts), watches the
// service's health, and after a lost connection retries with backoff (the timers are in
// connection-monitor.ts). Over 300 lines on purpose: one state machine (setup → connecting →
// connected ⇄ offline) whose transitions read best side by side.
import {
  ApiError,
  createClient,
  NetworkError,
  TimeoutError,
  type DiffReviewClient,
} from '../../service/client/index.ts';
import type { ConnectionChoice, ConnectionMode, ConnectionState, TokenRecord } from '../shared/ipc-contract.ts';
import { provisionAppToken } from './app-token.ts';
import { validateChoice } from './connection-choice.ts';
import type { CredentialStore } from './credential-store.ts';
import { InvalidInputError, NotConnectedError } from './ipc-errors.ts';
import { ConnectionMonitor } from './connection-monitor.ts';
import type { BuiltInService } from './service-launcher.ts';

export interface ConnectionOptions {
  credentials: CredentialStore;
  /** Starts (or finds) the built-in service; called at most once until it is closed. */
  startBuiltIn: () => Promise<BuiltInService>;
  /** Pushed to the window on every change. */
  onChange: (state: ConnectionState) => void;
  log: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
  /** How often a healthy connection is checked (5 s), the first retry after a loss (1 s) and the longest (30 s). */
  healthIntervalMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** Per request. Default 10 s. */
  requestTimeoutMs?: number;
}

interface Target {
  mode: ConnectionMode;
  url: string;
  dashboardToken: string;
}

/** A dashboard-token problem the user fixes in the setup form. */
const isAuthFailure = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);
const isUnreachable = (error: unknown) => error instanceof NetworkError || error instanceof TimeoutError;

export class Connection {
  readonly #options: ConnectionOptions;
  #state: ConnectionState;
  #target: Target | undefined;
  #builtIn: Promise<BuiltInService> | undefined;
  #appToken: string | undefined;
  #appTokenId: string | null = null;
  readonly #monitor: ConnectionMonitor;
  #closed = false;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    this.#monitor = new ConnectionMonitor(options);
    this.#state = this.#setupState();
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** The id of the review token the app uses itself (labelled in the token list). */
  get appTokenId(): string | null {
    return this.#appTokenId;
  }

  /** On app start: reconnects to the saved choice, or shows setup. */
  async start(): Promise<ConnectionState> {
    const saved = this.#options.credentials.connection;
    if (!saved) return this.#set(this.#setupState());
    if (saved.mode === 'built-in') return this.#open({ mode: 'built-in' }, 'saved');
    const token = this.#options.credentials.dashboardToken;
    if (!token)
      return this.#set(this.#setupState('Enter the dashboard token again: it was kept for one session only.'));
    // A saved address is checked as the form checks it: http:// to another machine only if the
    // user confirmed it (saved with the choice), else setup asks again, with the reason.
    let choice: ConnectionChoice;
    try {
      choice = validateChoice({
        mode: 'remote',
        url: saved.url,
        dashboardToken: token,
        ...(saved.allowCleartext ? { allowCleartext: true } : {}),
      });
    } catch (error) {
      if (error instanceof InvalidInputError) return this.#set(this.#setupState(error.message));
      throw error;
    }
    return this.#open(choice, 'saved');
  }

  /**
   * From the setup form: errors are thrown to be shown next to the field they concern. An empty
   * token for the last remote address means the saved one (the renderer never holds it).
   */
  async connect(choice: ConnectionChoice): Promise<ConnectionState> {
    const credentials = this.#options.credentials;
    if (
      choice?.mode === 'remote' &&
      typeof choice.dashboardToken === 'string' &&
      !choice.dashboardToken.trim() &&
      credentials.dashboardToken
    ) {
      const url = typeof choice.url === 'string' ? choice.url.trim().replace(/\/+$/, '') : '';
      if (url === credentials.lastUrl) choice = { ...choice, dashboardToken: credentials.dashboardToken };
    }
    return this.#open(validateChoice(choice), 'form');
  }

  /** The built-in service's process ended on its own (a crash): start a new one and reconnect. */
  async builtInExited(): Promise<void> {
    this.#builtIn = undefined;
    if (this.#closed || this.#target?.mode !== 'built-in') return;
    this.#options.log('warn', 'the built-in service stopped; starting it again');
    await this.#open({ mode: 'built-in' }, 'saved').catch(() => {});
  }

  /** "Retry now" on the banner. */
  async retry(): Promise<ConnectionState> {
    if (this.#state.phase !== 'offline') return this.#state;
    this.#monitor.cancelRetry();
    await this.#reconnect();
    return this.#state;
  }

  /** Back to setup; forgets the saved choice (the dashboard token stays for the same address). */
  async change(): Promise<ConnectionState> {
    this.#monitor.stop();
    this.#target = undefined;
    this.#appToken = undefined;
    this.#appTokenId = null;
    this.#options.credentials.forgetConnection();
    return this.#set(this.#setupState());
  }

  /** Runs a call with the dashboard token (token manager). */
  withDashboard<T>(call: (client: DiffReviewClient) => Promise<T>): Promise<T> {
    return this.#call(async () => call(this.#client(this.#requireTarget().dashboardToken)), false);
  }

  /** Runs a call with the app's review token (dashboard); a revoked token is replaced once. */
  withReviews<T>(call: (client: DiffReviewClient) => Promise<T>): Promise<T> {
    return this.#call(async () => call(this.reviewClient()), true);
  }

  /** A client that asks for the current review token on every request (for long watches). */
  reviewClient(): DiffReviewClient {
    const target = this.#requireTarget();
    return createClient({
      baseUrl: target.url,
      token: () => this.#appToken,
      timeoutMs: this.#options.requestTimeoutMs ?? 10_000,
      retry: 1,
    });
  }

  /** Tells the connection a call could not reach the service (from a watcher). */
  reportFailure(error: unknown): void {
    if (isUnreachable(error) && this.#state.phase === 'connected') this.#goOffline(error);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#monitor.stop();
    await this.#closeBuiltIn();
  }

  async #call<T>(run: () => Promise<T>, reviewToken: boolean): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUnreachable(error)) this.#goOffline(error);
      else if (reviewToken && error instanceof ApiError && error.status === 401 && this.#target) {
        // The app's token was revoked (perhaps from its own token list): make a new one, once.
        this.#appToken = undefined;
        this.#options.credentials.setAppToken(this.#target.url, undefined);
        const dashboard = this.#client(this.#target.dashboardToken);
        await this.#ensureAppToken(this.#target, dashboard, (await dashboard.listTokens()).tokens);
        return run();
      } else if (!reviewToken && error instanceof ApiError && error.status === 401) {
        this.#monitor.stop();
        this.#set(this.#setupState('The service no longer accepts the dashboard token. Connect again.'));
      }
      throw error;
    }
  }

  async #open(choice: ConnectionChoice, from: 'saved' | 'form'): Promise<ConnectionState> {
    this.#monitor.stop();
    this.#set({ phase: 'connecting', mode: choice.mode, ...(choice.mode === 'remote' ? { url: choice.url } : {}) });
    let target: Target;
    try {
      if (choice.mode === 'built-in') {
        this.#builtIn ??= this.#options.startBuiltIn();
        const service = await this.#builtIn.catch((error: unknown) => {
          this.#builtIn = undefined;
          throw error;
        });
        target = { mode: 'built-in', url: service.url, dashboardToken: service.dashboardToken };
      } else {
        await this.#closeBuiltIn();
        target = { mode: 'remote', url: choice.url, dashboardToken: choice.dashboardToken };
      }
    } catch (error) {
      this.#options.log('error', 'the built-in service did not start', { err: error });
      this.#set(this.#setupState(`The built-in service did not start: ${(error as Error).message}`));
      throw error;
    }
    this.#target = target;
    try {
      await this.#establish(target);
    } catch (error) {
      if (from === 'saved' && isUnreachable(error)) {
        this.#goOffline(error);
        return this.#state;
      }
      this.#target = undefined;
      const reason = isAuthFailure(error)
        ? 'The service refused the dashboard token. Check it and connect again.'
        : isUnreachable(error)
          ? `The service at ${target.url} cannot be reached.`
          : undefined;
      this.#set(this.#setupState(from === 'saved' ? reason : undefined));
      if (from === 'form' && choice.mode === 'remote') {
        if (isAuthFailure(error))
          throw new InvalidInputError(
            "The service refused this dashboard token. Copy it again from the service's dashboard-token file.",
            'dashboardToken',
          );
        if (isUnreachable(error))
          throw new InvalidInputError(
            `Nothing answers at ${target.url}. Check the address and that the service is running.`,
            'url',
          );
      }
      throw error;
    }
    this.#options.credentials.saveConnection(
      choice.mode === 'built-in'
        ? { mode: 'built-in' }
        : { mode: 'remote', url: target.url, ...(choice.allowCleartext ? { allowCleartext: true as const } : {}) },
      target.mode === 'remote' ? target.dashboardToken : undefined,
    );
    return this.#state;
  }

  /** Health, the dashboard token, the app token; then connected and watched. */
  async #establish(target: Target): Promise<void> {
    const client = this.#client(target.dashboardToken);
    const health = await client.health();
    const { tokens } = await client.listTokens();
    await this.#ensureAppToken(target, client, tokens);
    this.#set({ phase: 'connected', mode: target.mode, url: target.url, version: health.version });
    // Checked without retries: one failed check is a lost connection.
    const checker = this.#client(target.dashboardToken, 0);
    this.#monitor.connected(
      () => checker.health(),
      (error) => this.#goOffline(error),
    );
  }

  async #ensureAppToken(target: Target, dashboard: DiffReviewClient, tokens: TokenRecord[]): Promise<void> {
    const { secret, id } = await provisionAppToken({
      url: target.url,
      dashboard,
      tokens,
      credentials: this.#options.credentials,
      current: this.#appToken && this.#appTokenId ? { secret: this.#appToken, id: this.#appTokenId } : undefined,
      log: this.#options.log,
    });
    this.#appToken = secret;
    this.#appTokenId = id;
  }

  #goOffline(error: unknown): void {
    if (this.#closed || !this.#target || this.#state.phase === 'setup') return;
    this.#monitor.stop();
    this.#options.log('warn', 'lost the connection to the service', { url: this.#target.url, err: String(error) });
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    const target = this.#target!;
    const { retryAt, attempt } = this.#monitor.retryLater(() => void this.#reconnect());
    this.#set({
      phase: 'offline',
      mode: target.mode,
      url: target.url,
      message: `The service at ${target.url} cannot be reached.`,
      attempt,
      retryAt,
    });
  }

  async #reconnect(): Promise<void> {
    const target = this.#target;
    if (!target || this.#closed) return;
    try {
      await this.#establish(target);
      this.#options.log('info', 'reconnected to the service', { url: target.url });
    } catch (error) {
      if (isAuthFailure(error)) {
        this.#target = undefined;
        this.#set(this.#setupState('The service refused the dashboard token. Check it and connect again.'));
        return;
      }
      this.#monitor.retryFailed();
      this.#scheduleRetry();
    }
  }

  async #closeBuiltIn(): Promise<void> {
    const builtIn = this.#builtIn;
    this.#builtIn = undefined;
    if (builtIn) await (await builtIn.catch(() => undefined))?.close();
  }

  #requireTarget(): Target {
    if (!this.#target || (this.#state.phase !== 'connected' && this.#state.phase !== 'offline'))
      throw new NotConnectedError();
    return this.#target;
  }

  #client(token: string, retry = 1): DiffReviewClient {
    return createClient({
      baseUrl: this.#target?.url ?? '',
      token,
      timeoutMs: this.#options.requestTimeoutMs ?? 10_000,
      retry,
    });
  }

  #setupState(reason?: string): ConnectionState {
    const credentials = this.#options.credentials;
    return {
      phase: 'setup',
      secureStorage: credentials.persistsSecrets,
      ...(reason ? { reason } : {}),
      ...(credentials.lastUrl ? { lastUrl: credentials.lastUrl } : {}),
      ...(credentials.lastUrl && credentials.dashboardToken ? { savedToken: true } : {}),
    };
  }

  #set(state: ConnectionState): ConnectionState {
    this.#state = state;
    if (!this.#closed) this.#options.onChange(state);
    return state;
  }
}
