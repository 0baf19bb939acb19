// The one IPC contract of the desktop app, shared by the main process, the preload bridge and the
// renderer (after GitHub Desktop's ipc-shared.ts). Every channel is declared here once: its
// arguments and its result. Main registers exactly these channels, the preload forwards exactly
// these, and the renderer's calls are type-checked against them. Types only, plus the channel
// lists: no Node, no Electron, so all three sides can import it.
import type {
  CreatedToken,
  ReviewJob,
  ReviewList,
  ReviewScope,
  ReviewStatus,
  TokenRecord,
} from '../../service/api/schemas.ts';

export type { CreatedToken, ReviewJob, ReviewList, ReviewScope, ReviewStatus, TokenRecord };

/** How the app reaches a service. */
export type ConnectionChoice =
  | { mode: 'built-in' }
  | {
      mode: 'remote';
      url: string;
      dashboardToken: string;
      /** The user confirmed sending the token over http:// to a host that is not this machine. */
      allowCleartext?: boolean;
    };

export type ConnectionMode = ConnectionChoice['mode'];

/** What the window shows in its connection indicator; pushed on every change. */
export type ConnectionState =
  | {
      phase: 'setup';
      /** Why setup is shown again, e.g. a refused dashboard token. */
      reason?: string;
      /** The last remote URL, to prefill the form (never the token). */
      lastUrl?: string;
      /** False when the OS offers no encryption: a remote dashboard token is then kept for this session only. */
      secureStorage: boolean;
      /** The app holds a dashboard token for lastUrl: the form may leave the token empty to use it. */
      savedToken?: boolean;
    }
  | { phase: 'connecting'; mode: ConnectionMode; url?: string }
  | { phase: 'connected'; mode: ConnectionMode; url: string; version: string }
  | {
      phase: 'offline';
      mode: ConnectionMode;
      url: string;
      message: string;
      /** Retries so far since the connection was lost. */
      attempt: number;
      /** When the next retry starts (epoch ms). */
      retryAt: number;
    };

/** Every failure crosses IPC as a value (Electron would keep only an Error's message). */
export interface IpcError {
  kind:
    | 'api' // the service answered non-2xx: see status and code
    | 'network' // the service could not be reached
    | 'timeout'
    | 'git' // the folder could not be turned into a diff
    | 'not_connected'
    | 'invalid_input' // the renderer sent something the handler refuses
    | 'forbidden' // the sender is not the app's own window
    | 'internal';
  message: string;
  /** HTTP status, for kind 'api'. */
  status?: number;
  /** The API's error identifier (`invalid_request`, `unauthorized`, …) or the git error's name. */
  code?: string;
  /** The form field the error belongs to, so the UI can show it next to that field. */
  field?: string;
  retryAfterSeconds?: number;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export interface TokenListView {
  tokens: TokenRecord[];
  /** The id of the token the app itself uses for the dashboard, to label it. */
  appTokenId: string | null;
}

export interface CreateTokenRequest {
  name: string;
  scopes: ReviewScope[];
  /** 7, 30, 90 or 365; null for never. */
  expiresInDays: number | null;
}

export interface ListReviewsRequest {
  status?: ReviewStatus;
  repository?: string;
  cursor?: string;
  /** Page size, 1–100 (25 when left out). */
  limit?: number;
}

export interface SubmitDiffRequest {
  diff: string;
  repository: string;
  baseCommit?: string;
}

export interface SubmitFolderRequest {
  /** A folder the user chose through `git:chooseFolder` in this session. */
  folder: string;
  baseBranch?: string;
  includeUncommitted: boolean;
}

export interface SubmittedFolderReview {
  job: ReviewJob;
  repository: string;
  baseRef: string;
  baseCommit: string;
  diffBytes: number;
}

export interface OpenInEditorRequest {
  reviewId: string;
  /** The comment's file, relative to the reviewed folder. */
  filePath: string;
  line: number;
}

/** A finding an inline comment suppressed (diff-review-ignore, …): not a comment, but kept with the review. */
export interface SuppressedInReview {
  rule_id: string;
  file_path: string;
  line: number;
  /** The comment's marker: diff-review-ignore, nosemgrep, … */
  by: string;
  /** Why, as the comment says; null when it gives none. */
  reason: string | null;
}

export interface LocalReviewInfo {
  /** The folder on this machine it was submitted from, or null. */
  folder: string | null;
  /** The app still holds its diff. */
  canRerun: boolean;
}

export type FolderCheck =
  | { problem: string }
  | { problem: null; repository: string; baseRef: string; diffBytes: number };

/** Renderer → main requests: channel → arguments and result. */
export interface IpcChannels {
  'connection:get': { args: []; result: ConnectionState };
  'connection:connect': { args: [choice: ConnectionChoice]; result: ConnectionState };
  'connection:retry': { args: []; result: ConnectionState };
  /** Back to the setup screen (forgets the saved choice; keeps the dashboard token for the same address). */
  'connection:change': { args: []; result: ConnectionState };
  'tokens:list': { args: []; result: TokenListView };
  'tokens:create': { args: [request: CreateTokenRequest]; result: CreatedToken };
  'tokens:revoke': { args: [tokenId: string]; result: null };
  'reviews:list': { args: [request: ListReviewsRequest]; result: ReviewList };
  'reviews:get': { args: [reviewId: string]; result: ReviewJob };
  'reviews:cancel': { args: [reviewId: string]; result: ReviewJob };
  /** Fetches the SARIF log in main and puts it on the clipboard; answers its size. */
  'reviews:copySarif': { args: [reviewId: string]; result: { bytes: number } };
  'reviews:submitDiff': { args: [request: SubmitDiffRequest]; result: ReviewJob };
  'reviews:submitFolder': { args: [request: SubmitFolderRequest]; result: SubmittedFolderReview };
  /** What the app knows of a review it submitted in this session: its folder, whether it can run again. */
  'reviews:localInfo': { args: [reviewId: string]; result: LocalReviewInfo };
  /**
   * The flagged lines' code of a completed review, keyed `file:line`: as the service read it (its
   * SARIF), else for a folder review as the folder has it now. null: the line holds a secret, never shown.
   */
  'reviews:flaggedLines': { args: [reviewId: string]; result: Record<string, string | null> };
  /** What inline comments suppressed in a completed review (from the service's SARIF); [] from an older service. */
  'reviews:suppressed': { args: [reviewId: string]; result: SuppressedInReview[] };
  /** Submits a review again with the same diff (one this app submitted in this session). */
  'reviews:rerun': { args: [reviewId: string]; result: ReviewJob };
  /** Cancels every queued review of the owner; answers how many. */
  'reviews:cancelQueued': { args: []; result: { cancelled: number } };
  /** Asks where to save the SARIF log (the OS save dialog), then writes it; null when cancelled. */
  'reviews:saveSarif': { args: [reviewId: string]; result: { path: string; bytes: number } | null };
  /** Opens a folder review's file at a line in VS Code (vscode://file/…). */
  'reviews:openInEditor': { args: [request: OpenInEditorRequest]; result: null };
  /** Whether a chosen folder can be reviewed with these settings: the reason when not. */
  'git:checkFolder': { args: [request: SubmitFolderRequest]; result: FolderCheck };
  /** Opens the OS folder picker; null when cancelled. */
  'git:chooseFolder': { args: []; result: { folder: string } | null };
  'clipboard:writeText': { args: [text: string]; result: null };
}

/** A keyboard command of the application menu (main/app-menu.ts), carried out by the page. */
export type MenuCommand =
  | 'new-review'
  | 'show-reviews'
  | 'show-tokens'
  | 'focus-search'
  | 'next-review'
  | 'previous-review'
  | 'open-review'
  | 'back-to-list';

/** Main → renderer notifications. */
export interface IpcEvents {
  'connection:changed': ConnectionState;
  'review:updated': ReviewJob;
  'menu:command': MenuCommand;
}

export type IpcChannel = keyof IpcChannels;
export type IpcEvent = keyof IpcEvents;
export type IpcArgs<C extends IpcChannel> = IpcChannels[C]['args'];
export type IpcReturn<C extends IpcChannel> = IpcChannels[C]['result'];

// `satisfies Record<…>` makes the compiler list every channel: adding one to the interface
// without adding it here is a type error, so preload and main cannot miss one.
const channelSet = {
  'connection:get': true,
  'connection:connect': true,
  'connection:retry': true,
  'connection:change': true,
  'tokens:list': true,
  'tokens:create': true,
  'tokens:revoke': true,
  'reviews:list': true,
  'reviews:get': true,
  'reviews:cancel': true,
  'reviews:copySarif': true,
  'reviews:submitDiff': true,
  'reviews:submitFolder': true,
  'reviews:localInfo': true,
  'reviews:flaggedLines': true,
  'reviews:suppressed': true,
  'reviews:rerun': true,
  'reviews:cancelQueued': true,
  'reviews:saveSarif': true,
  'reviews:openInEditor': true,
  'git:checkFolder': true,
  'git:chooseFolder': true,
  'clipboard:writeText': true,
} as const satisfies Record<IpcChannel, true>;

const eventSet = {
  'connection:changed': true,
  'review:updated': true,
  'menu:command': true,
} as const satisfies Record<IpcEvent, true>;

export const IPC_CHANNELS = Object.keys(channelSet) as IpcChannel[];

export const isIpcChannel = (value: unknown): value is IpcChannel =>
  typeof value === 'string' && Object.hasOwn(channelSet, value);
export const isIpcEvent = (value: unknown): value is IpcEvent =>
  typeof value === 'string' && Object.hasOwn(eventSet, value);

/** What the preload exposes to the renderer as `window.diffReview`. */
export interface DiffReviewBridge {
  invoke<C extends IpcChannel>(channel: C, ...args: IpcArgs<C>): Promise<IpcResult<IpcReturn<C>>>;
  /** Subscribes to a main-process notification; returns the unsubscribe function. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): () => void;
}

/** The name of the bridge on `window`. */
export const BRIDGE_KEY = 'diffReview';

/** Expiry choices offered when creating a token (days; null = never). */
export const TOKEN_EXPIRY_CHOICES = [7, 30, 90, 365, null] as const;

/** The name under which the app's own review token is listed. */
export const APP_TOKEN_NAME = 'Desktop dashboard';
