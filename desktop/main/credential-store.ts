// Where the app keeps its connection and its secrets. The choice (built-in or a URL) is plain
// JSON; the secrets (a remote dashboard token, the app's own review tokens) are one blob
// encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet). Without real
// encryption they are kept in memory for this session only: never in plain files, never in the
// renderer's localStorage.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The part of Electron's safeStorage the store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a hard-coded key, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

export type SavedConnection =
  | { mode: 'built-in' }
  /** allowCleartext: the user confirmed sending the dashboard token over http:// to this host. */
  | { mode: 'remote'; url: string; allowCleartext?: true };

/** The app's own review token on one service: the id is how the app knows it, never the name. */
export interface StoredAppToken {
  secret: string;
  /** Absent only for a secret stored by a version that did not keep the id. */
  id?: string;
}

export interface Secrets {
  /** The dashboard token of a remote service. */
  dashboardToken?: string;
  /** The app's own review token per service URL (a bare secret in files of older versions). */
  appTokens: Record<string, StoredAppToken | string>;
}

interface SettingsFile {
  version: 1;
  connection?: SavedConnection;
  lastUrl?: string;
  /** base64 of safeStorage.encryptString(JSON of Secrets). */
  secrets?: string;
}

export class CredentialStore {
  readonly file: string;
  readonly #safeStorage: SafeStorageLike;
  #settings: SettingsFile = { version: 1 };
  #secrets: Secrets = { appTokens: {} };

  constructor(options: { file: string; safeStorage: SafeStorageLike }) {
    this.file = options.file;
    this.#safeStorage = options.safeStorage;
    this.#load();
  }

  /** True when secrets survive a restart (real OS encryption is available). */
  get persistsSecrets(): boolean {
    const storage = this.#safeStorage;
    if (!storage.isEncryptionAvailable()) return false;
    return storage.getSelectedStorageBackend?.() !== 'basic_text';
  }

  get connection(): SavedConnection | undefined {
    return this.#settings.connection;
  }

  get lastUrl(): string | undefined {
    return this.#settings.lastUrl;
  }

  get dashboardToken(): string | undefined {
    return this.#secrets.dashboardToken;
  }

  appToken(serviceUrl: string): StoredAppToken | undefined {
    const stored = this.#secrets.appTokens[serviceUrl];
    return typeof stored === 'string' ? { secret: stored } : stored;
  }

  /** The dashboard token belongs to lastUrl: choosing the built-in service keeps both for later. */
  saveConnection(connection: SavedConnection, dashboardToken?: string): void {
    this.#settings.connection = connection;
    if (connection.mode === 'remote') {
      this.#settings.lastUrl = connection.url;
      if (dashboardToken === undefined) delete this.#secrets.dashboardToken;
      else this.#secrets.dashboardToken = dashboardToken;
    }
    this.#save();
  }

  /**
   * Forgets the choice only: the dashboard token stays for lastUrl, so "Change" and back to the
   * same service needs no copying of the token again (the app tokens stay too: they still work).
   */
  forgetConnection(): void {
    delete this.#settings.connection;
    this.#save();
  }

  setAppToken(serviceUrl: string, token: StoredAppToken | undefined): void {
    if (token === undefined) delete this.#secrets.appTokens[serviceUrl];
    else this.#secrets.appTokens[serviceUrl] = token;
    this.#save();
  }

  #load(): void {
    let raw: string;
    try {
      raw = readFileSync(this.file, 'utf8');
    } catch {
      return; // first start
    }
    try {
      const parsed = JSON.parse(raw) as SettingsFile;
      if (parsed && parsed.version === 1) this.#settings = parsed;
    } catch {
      return; // a damaged file is a first start, not a crash
    }
    if (this.#settings.secrets && this.persistsSecrets) {
      try {
        const secrets = JSON.parse(
          this.#safeStorage.decryptString(Buffer.from(this.#settings.secrets, 'base64')),
        ) as Secrets;
        this.#secrets = { dashboardToken: secrets.dashboardToken, appTokens: { ...secrets.appTokens } };
      } catch {
        // Encrypted under another OS key (a new keychain, another user): the secrets are gone.
        this.#secrets = { appTokens: {} };
      }
    }
  }

  #save(): void {
    const settings: SettingsFile = { version: 1 };
    if (this.#settings.connection) settings.connection = this.#settings.connection;
    if (this.#settings.lastUrl) settings.lastUrl = this.#settings.lastUrl;
    if (this.persistsSecrets) {
      settings.secrets = this.#safeStorage.encryptString(JSON.stringify(this.#secrets)).toString('base64');
    }
    this.#settings = settings;
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
