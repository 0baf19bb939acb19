/** @jsxImportSource preact */
// The token manager: list, create (the secret shown once), revoke with a confirmation.
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  TOKEN_EXPIRY_CHOICES,
  type CreatedToken,
  type IpcError,
  type ReviewScope,
  type TokenListView,
  type TokenRecord,
} from '../shared/ipc-contract.ts';
import { ConfirmDialog, EmptyState, ErrorPanel, FieldError, Loading, StaleNote, useFlash } from './components.tsx';
import { formatAgo, formatDate, formatDateTime, isExpired } from './format.ts';
import { invoke } from './ipc.ts';

export function TokensView(props: { connectionKey: number; stale: boolean; active: boolean }) {
  const [list, setList] = useState<TokenListView>();
  const [loadError, setLoadError] = useState<IpcError>();
  const [created, setCreated] = useState<CreatedToken>();
  const [revoking, setRevoking] = useState<TokenRecord>();
  const [loadedAt, setLoadedAt] = useState<number>();

  const listTitle = useRef<HTMLHeadingElement>(null);
  const load = async () => {
    const result = await invoke('tokens:list');
    if (result.ok) {
      setList(result.value);
      setLoadError(undefined);
      setLoadedAt(Date.now());
    } else setLoadError(result.error);
  };
  // Reloaded on every visit too (tokens made elsewhere appear); a reload keeps a shown secret.
  useEffect(() => {
    if (props.active) void load();
  }, [props.connectionKey, props.active]);

  return (
    <section class="view tokens" aria-labelledby="tokens-title">
      <div class="view-head">
        <div>
          <h2 id="tokens-title">Review API tokens</h2>
          <p class="muted">
            Tokens let CI jobs, scripts and editors submit and read reviews. Each secret is shown only once.
          </p>
        </div>
      </div>
      {created ? (
        <CreatedSecret token={created} onDone={() => setCreated(undefined)} />
      ) : (
        <CreateTokenForm
          existingNames={list?.tokens.map((t) => t.name) ?? []}
          onCreated={(token) => {
            setCreated(token);
            void load();
          }}
        />
      )}
      <div class="card">
        <h3 class="card-title" id="tokens-list-title" ref={listTitle} tabIndex={-1}>
          Active tokens{' '}
          {list && <span class="count">{list.tokens.filter((t) => !isExpired(t.expires_at, Date.now())).length}</span>}
        </h3>
        {props.stale && list && <StaleNote loadedAt={loadedAt} what="tokens" />}
        {/* A failed reload keeps the list it had: only a first load that failed shows the error. */}
        {loadError && !list ? (
          <ErrorPanel error={loadError} onRetry={() => void load()} />
        ) : !list ? (
          <Loading label="Loading tokens…" />
        ) : list.tokens.length === 0 ? (
          <EmptyState title="No review tokens yet" icon="⚿">
            Create one above for each tool that talks to the service, so you can revoke them one at a time.
          </EmptyState>
        ) : (
          <TokenTable view={list} onRevoke={setRevoking} />
        )}
      </div>
      {revoking && (
        <RevokeDialog
          token={revoking}
          isAppToken={revoking.id === list?.appTokenId}
          onClose={(revoked) => {
            setRevoking(undefined);
            // The revoked row and its button are gone: keep the keyboard focus on the list.
            if (revoked) void load().then(() => listTitle.current?.focus());
          }}
        />
      )}
    </section>
  );
}

function TokenTable(props: { view: TokenListView; onRevoke: (token: TokenRecord) => void }) {
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table class="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Token</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.view.tokens.map((token) => {
            const expired = isExpired(token.expires_at, now);
            return (
              <tr key={token.id} class={expired ? 'expired' : undefined} data-token-id={token.id}>
                <th scope="row" class="token-name">
                  <span class="name-text">{token.name}</span>
                  {token.id === props.view.appTokenId && <span class="badge neutral">Used by this app</span>}
                  {expired && <span class="badge status-failed">Expired</span>}
                </th>
                <td>
                  <code>{token.prefix}…</code>
                </td>
                <td class="scopes">
                  {token.scopes.map((scope) => (
                    <span key={scope} class="chip">
                      {scope}
                    </span>
                  ))}
                </td>
                <td title={formatDateTime(token.created_at)}>{formatDate(token.created_at)}</td>
                <td title={token.expires_at ? formatDateTime(token.expires_at) : undefined}>
                  {token.expires_at === null
                    ? 'Never'
                    : expired
                      ? `Expired ${formatDate(token.expires_at)}`
                      : formatDate(token.expires_at)}
                </td>
                <td title={token.last_used_at ? formatDateTime(token.last_used_at) : undefined}>
                  {token.last_used_at ? formatAgo(token.last_used_at, now) : <span class="muted">Never</span>}
                </td>
                <td class="row-actions">
                  <button
                    type="button"
                    class="button small danger-outline"
                    onClick={() => props.onRevoke(token)}
                    aria-label={`Revoke ${token.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The service's limit on a token's name (API.md: 1–100 characters). */
const TOKEN_NAME_MAX = 100;

const EXPIRY_LABEL = (days: number | null) => (days === null ? 'Never' : `${days} days`);

function CreateTokenForm(props: { existingNames: string[]; onCreated: (token: CreatedToken) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReviewScope[]>(['reviews:read', 'reviews:write']);
  const [expiry, setExpiry] = useState<string>('90');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError>();

  const toggle = (scope: ReviewScope, on: boolean) =>
    setScopes((current) => (on ? [...new Set([...current, scope])] : current.filter((s) => s !== scope)));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await invoke('tokens:create', {
      name,
      scopes,
      expiresInDays: expiry === 'never' ? null : Number(expiry),
    });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setName('');
    props.onCreated(result.value);
  };
  const errorFor = (field: string) => (error?.field === field ? error.message : undefined);
  const nameError = errorFor('name');
  // Allowed (the service does), but two tokens of one name cannot be told apart when revoking.
  const duplicate =
    name.trim() !== '' && props.existingNames.some((n) => n.trim().toLowerCase() === name.trim().toLowerCase());
  const scopesError = errorFor('scopes');
  const generalError = error && !['name', 'scopes', 'expires_in_days'].includes(error.field ?? '') ? error : undefined;

  return (
    <form class="card create-token" onSubmit={submit} aria-labelledby="create-token-title">
      <h3 id="create-token-title" class="card-title">
        Create a token
      </h3>
      <div class="form-row">
        <div class="field grow">
          <label for="token-name">Name</label>
          <input
            id="token-name"
            type="text"
            placeholder="e.g. CI on main"
            maxLength={TOKEN_NAME_MAX}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'token-name-error' : undefined}
          />
          <FieldError id="token-name-error" error={nameError} />
          {duplicate && (
            <p id="token-name-duplicate" class="hint" role="status">
              There is already a token named “{name.trim()}”: a different name tells them apart when you revoke one.
            </p>
          )}
        </div>
        <fieldset class="field">
          <legend>Scopes</legend>
          <div class="checks" aria-describedby={scopesError ? 'token-scopes-error' : undefined}>
            <label class="check">
              <input
                type="checkbox"
                checked={scopes.includes('reviews:read')}
                onChange={(e) => toggle('reviews:read', e.currentTarget.checked)}
              />
              <span>
                reviews:read <span class="muted">(read, list, follow)</span>
              </span>
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={scopes.includes('reviews:write')}
                onChange={(e) => toggle('reviews:write', e.currentTarget.checked)}
              />
              <span>
                reviews:write <span class="muted">(submit, cancel)</span>
              </span>
            </label>
          </div>
          <FieldError id="token-scopes-error" error={scopesError} />
        </fieldset>
        <div class="field">
          <label for="token-expiry">Expires after</label>
          <select id="token-expiry" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
            {TOKEN_EXPIRY_CHOICES.map((days) => (
              <option key={String(days)} value={days === null ? 'never' : String(days)}>
                {EXPIRY_LABEL(days)}
              </option>
            ))}
          </select>
          <FieldError id="token-expiry-error" error={errorFor('expires_in_days')} />
        </div>
        <div class="field field-action">
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </div>
      {generalError && <ErrorPanel error={generalError} />}
    </form>
  );
}

function CreatedSecret(props: { token: CreatedToken; onDone: () => void }) {
  const [flash, setFlash] = useFlash();
  const [copyError, setCopyError] = useState<string>();
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => copyRef.current?.focus(), []);
  return (
    <section class="card secret" aria-labelledby="secret-title">
      <h3 id="secret-title" class="card-title">
        Token “{props.token.name}” created
      </h3>
      <p class="secret-warning">
        <strong>Copy it now: you will not see this token again.</strong> Store it where your tool reads secrets (for
        example a CI secret).
      </p>
      <div class="secret-row">
        <input
          type="text"
          class="secret-value"
          readOnly
          value={props.token.token}
          aria-label="The new token's secret"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          ref={copyRef}
          type="button"
          class="button primary"
          onClick={async () => {
            const result = await invoke('clipboard:writeText', props.token.token);
            if (result.ok) setFlash('Copied to the clipboard');
            else setCopyError(result.error.message);
          }}
        >
          Copy
        </button>
        <button type="button" class="button" onClick={props.onDone}>
          Done
        </button>
      </div>
      <p class="flash" role="status" aria-live="polite">
        {flash ?? copyError ?? ''}
      </p>
      <p class="muted small">
        Scopes: {props.token.scopes.join(', ')} ·{' '}
        {props.token.expires_at ? `expires ${formatDate(props.token.expires_at)}` : 'never expires'}
      </p>
    </section>
  );
}

function RevokeDialog(props: { token: TokenRecord; isAppToken: boolean; onClose: (revoked: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <ConfirmDialog
      title={`Revoke “${props.token.name}”?`}
      confirmLabel="Revoke token"
      busy={busy}
      error={error}
      onCancel={() => props.onClose(false)}
      onConfirm={async () => {
        setBusy(true);
        const result = await invoke('tokens:revoke', props.token.id);
        setBusy(false);
        if (result.ok) props.onClose(true);
        else setError(result.error.message);
      }}
    >
      <p>
        Anything using the token <code>{props.token.prefix}…</code> stops working at once. This cannot be undone.
      </p>
      {props.isAppToken && (
        <p class="muted">This app uses this token for its dashboard; it will create a new one when it needs it.</p>
      )}
    </ConfirmDialog>
  );
}
