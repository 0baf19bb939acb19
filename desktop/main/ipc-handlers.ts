// The main-process side of every IPC channel. All service calls happen here, with tokens the
// renderer never sees; the renderer gets plain values (see shared/ipc-contract.ts).
import { ApiError } from '../../service/client/index.ts';
import { GitError, prepareReview, type PreparedReview, type PrepareReviewOptions } from '../../service/git/index.ts';
import { TOKEN_EXPIRY_CHOICES, type ReviewScope, type ReviewStatus } from '../shared/ipc-contract.ts';
import type { Connection } from './connection.ts';
import type { FolderReviews } from './folder-reviews.ts';
import type { ReviewInputs } from './review-inputs.ts';
import { writeFile } from 'node:fs/promises';
import { SECRET_RULE_IDS } from '../../service/store/flagged-lines.ts';
import { folderDiff } from './folder-diff.ts';
import { InvalidInputError } from './ipc-errors.ts';
import type { IpcHandlers } from './ipc-router.ts';
import type { ReviewWatcher } from './review-watcher.ts';
import { snippetsFromSarif, suppressedFromSarif } from './sarif-snippets.ts';

export interface IpcHandlerDependencies {
  connection: Connection;
  watcher: ReviewWatcher;
  /** The OS folder picker (Electron's dialog); undefined when cancelled. */
  chooseFolder: () => Promise<string | undefined>;
  writeClipboard: (text: string) => void;
  /** Opens a URL outside the app (Electron's shell.openExternal): here only vscode://file/… links. */
  openExternal: (url: string) => Promise<void>;
  folderReviews: FolderReviews;
  reviewInputs: ReviewInputs;
  /** The OS save dialog (Electron's dialog.showSaveDialog); undefined when cancelled. */
  chooseSaveFile: (defaultName: string) => Promise<string | undefined>;
  /** Writes a file the user chose in the save dialog. */
  writeFile?: (file: string, text: string) => Promise<void>;
  /** The shared git module; replaceable in tests only to simulate failures. */
  prepareReview?: (options: PrepareReviewOptions) => Promise<PreparedReview>;
}

const STATUSES: readonly ReviewStatus[] = ['queued', 'running', 'completed', 'failed'];
const SCOPES: readonly ReviewScope[] = ['reviews:read', 'reviews:write'];
const PAGE_SIZE = 25;

export function createIpcHandlers(deps: IpcHandlerDependencies): IpcHandlers {
  const { connection, watcher, folderReviews, reviewInputs } = deps;
  const sarifText = async (reviewId: unknown) =>
    JSON.stringify(await connection.withReviews((client) => client.getSarif(text(reviewId, 'reviewId'))), null, 2);
  const prepare = deps.prepareReview ?? prepareReview;
  /** Folders the user picked in the OS dialog; the renderer cannot name any other. */
  const chosenFolders = new Set<string>();
  const chosen = (value: unknown) => {
    const folder = text(value, 'folder');
    if (!chosenFolders.has(folder))
      throw new InvalidInputError('Choose the folder with "Choose folder…" first.', 'folder');
    return folder;
  };

  return {
    'connection:get': async () => connection.state,
    'connection:connect': (choice) => connection.connect(choice),
    'connection:retry': () => connection.retry(),
    'connection:change': () => {
      watcher.stopAll();
      return connection.change();
    },

    'tokens:list': async () => {
      const { tokens } = await connection.withDashboard((client) => client.listTokens());
      return { tokens, appTokenId: connection.appTokenId };
    },
    'tokens:create': async (request) => {
      const name = text(request?.name, 'name').trim();
      if (!name) throw new InvalidInputError('Give the token a name, e.g. "CI on main".', 'name');
      const scopes = Array.isArray(request.scopes) ? request.scopes.filter((s) => SCOPES.includes(s)) : [];
      if (scopes.length === 0) throw new InvalidInputError('Choose at least one scope.', 'scopes');
      if (!(TOKEN_EXPIRY_CHOICES as readonly unknown[]).includes(request.expiresInDays)) {
        throw new InvalidInputError('Choose when the token expires.', 'expires_in_days');
      }
      return connection.withDashboard((client) =>
        client.createToken({ name, scopes: [...new Set(scopes)], expires_in_days: request.expiresInDays }),
      );
    },
    'tokens:revoke': async (tokenId) => {
      const id = text(tokenId, 'tokenId');
      await connection.withDashboard((client) => client.deleteToken(id));
      return null;
    },

    'reviews:list': async (request = {}) => {
      const status = request.status && STATUSES.includes(request.status) ? request.status : undefined;
      const repository = request.repository?.trim() || undefined;
      const cursor = request.cursor || undefined;
      const limit = Number.isInteger(request.limit) ? Math.min(100, Math.max(1, request.limit!)) : PAGE_SIZE;
      const page = await connection.withReviews((client) => client.listReviews({ status, repository, cursor, limit }));
      watcher.watch(page.reviews);
      return { ...page, reviews: page.reviews.map((job) => folderReviews.configure(job)) };
    },
    'reviews:get': async (reviewId) => {
      const job = await connection.withReviews((client) => client.getReview(text(reviewId, 'reviewId')));
      watcher.watch([job]);
      return folderReviews.configure(job);
    },
    'reviews:cancel': (reviewId) => connection.withReviews((client) => client.cancelReview(text(reviewId, 'reviewId'))),
    'reviews:copySarif': async (reviewId) => {
      const json = await sarifText(reviewId);
      deps.writeClipboard(json);
      return { bytes: Buffer.byteLength(json, 'utf8') };
    },
    'reviews:saveSarif': async (reviewId) => {
      const id = text(reviewId, 'reviewId');
      const json = await sarifText(id);
      const file = await deps.chooseSaveFile(`${id}.sarif`);
      if (!file) return null;
      await (deps.writeFile ?? ((f, t) => writeFile(f, t, 'utf8')))(file, json);
      return { path: file, bytes: Buffer.byteLength(json, 'utf8') };
    },
    'reviews:flaggedLines': async (reviewId) => {
      const id = text(reviewId, 'reviewId');
      const job = await connection.withReviews((client) => client.getReview(id));
      const comments = job.comments ?? [];
      if (comments.length === 0) return {};
      // The service's copy first (what was reviewed); an older service without snippets: the folder's.
      const fromService = await connection
        .withReviews((client) => client.getSarif(id))
        .then(snippetsFromSarif, () => new Map<string, string>());
      const lines: Record<string, string | null> = {
        ...(await folderReviews.flaggedLines(id, comments)),
        ...Object.fromEntries(fromService),
      };
      for (const key of secretLines(comments)) lines[key] = null;
      return lines;
    },
    'reviews:suppressed': async (reviewId) => {
      const id = text(reviewId, 'reviewId');
      return connection.withReviews((client) => client.getSarif(id)).then(suppressedFromSarif);
    },
    'reviews:rerun': async (reviewId) => {
      const id = text(reviewId, 'reviewId');
      const input = reviewInputs.inputOf(id);
      if (!input)
        throw new InvalidInputError('This app no longer holds the diff of that review: submit it again.', 'reviewId');
      const job = await connection.withReviews((client) => client.createReview(input));
      reviewInputs.remember(job.review_id, input);
      folderReviews.copy(id, job.review_id);
      watcher.submitted(job);
      return job;
    },
    'reviews:cancelQueued': async () => {
      let cancelled = 0;
      const tried = new Set<string>();
      // The first page again after each round: the cancelled jobs have left the queued list.
      for (;;) {
        const page = await connection.withReviews((client) => client.listReviews({ status: 'queued', limit: 100 }));
        const fresh = page.reviews.filter((job) => !tried.has(job.review_id));
        if (fresh.length === 0) return { cancelled };
        for (const job of fresh) {
          tried.add(job.review_id);
          // A job that finished meanwhile answers 409: nothing to cancel.
          const done = await connection
            .withReviews((client) => client.cancelReview(job.review_id))
            .catch((error: unknown) => {
              if (error instanceof ApiError && error.status === 409) return undefined;
              throw error;
            });
          if (done?.error?.code === 'cancelled') cancelled++;
        }
      }
    },
    'reviews:submitDiff': async (request) => {
      const diff = text(request?.diff, 'diff');
      if (!diff.trim()) throw new InvalidInputError('Paste a unified diff (the output of git diff).', 'diff');
      const repository = text(request.repository, 'repository').trim();
      if (!repository) throw new InvalidInputError('Name the repository, e.g. github.com/acme/widgets.', 'repository');
      const baseCommit = request.baseCommit?.trim() || undefined;
      const body = baseCommit ? { diff, repository, base_commit: baseCommit } : { diff, repository };
      const job = await connection.withReviews((client) => client.createReview(body));
      reviewInputs.remember(job.review_id, body);
      watcher.submitted(job);
      return job;
    },
    'reviews:submitFolder': async (request) => {
      const folder = chosen(request?.folder);
      const { prepared, diff, diffBytes, config } = await folderDiff(prepare, { ...request, folder });
      const body = { diff, repository: prepared.repository, base_commit: prepared.baseCommit };
      const job = await connection.withReviews((client) => client.createReview(body));
      reviewInputs.remember(job.review_id, body);
      // Its comments get the folder's rule settings (as the CLI applies them), see FolderReviews.
      folderReviews.remember(job.review_id, prepared.root, config);
      watcher.submitted(job);
      return {
        job: folderReviews.configure(job),
        repository: prepared.repository,
        baseRef: prepared.baseRef,
        baseCommit: prepared.baseCommit,
        diffBytes,
      };
    },
    'git:checkFolder': async (request) => {
      const folder = chosen(request?.folder);
      try {
        const { prepared, diffBytes } = await folderDiff(prepare, { ...request, folder });
        return { problem: null, repository: prepared.repository, baseRef: prepared.baseRef, diffBytes };
      } catch (error) {
        if (error instanceof InvalidInputError || error instanceof GitError) return { problem: error.message };
        throw error;
      }
    },
    'reviews:localInfo': async (reviewId) => {
      const id = text(reviewId, 'reviewId');
      return { folder: folderReviews.folderOf(id) ?? null, canRerun: reviewInputs.inputOf(id) !== undefined };
    },
    'reviews:openInEditor': async (request) => {
      const url = folderReviews.editorUrl(text(request?.reviewId, 'reviewId'), request.filePath, request.line);
      await deps.openExternal(url);
      return null;
    },
    'git:chooseFolder': async () => {
      const folder = await deps.chooseFolder();
      if (!folder) return null;
      chosenFolders.add(folder);
      return { folder };
    },
    'clipboard:writeText': async (value) => {
      deps.writeClipboard(text(value, 'text'));
      return null;
    },
  };
}

/** `file:line` of the lines a secret rule flagged: their code is never shown, whichever rule's comment it is beside. */
function secretLines(comments: readonly { file_path: string; line: number; message: string }[]): Set<string> {
  const ruleOf = (message: string) => message.slice(0, Math.max(0, message.indexOf(':')));
  return new Set(comments.filter((c) => SECRET_RULE_IDS.has(ruleOf(c.message))).map((c) => `${c.file_path}:${c.line}`));
}

/** Arguments come from another process: check their type before use. */
function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new InvalidInputError(`Expected text for ${field}.`, field);
  return value;
}
