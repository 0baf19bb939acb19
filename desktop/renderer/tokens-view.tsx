/** @jsxImportSource preact */
// The token manager: create (the secret shown once, with a CI snippet), the live tokens (sorted
// by creation or last use, those about to expire marked), the expired ones apart, revoke.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreatedToken, IpcError, TokenListView, TokenRecord } from '../shared/ipc-contract.ts';
import { EmptyState, ErrorPanel, Loading, StaleNote } from './components.tsx';
import { CreateTokenForm } from './create-token-form.tsx';
import { CreatedSecret } from './created-secret.tsx';
import { formatAgo, formatDate, formatDateTime, isExpired } from './time-format.ts';
import { invoke } from './ipc.ts';
import { RevokeDialog } from './revoke-dialog.tsx';

/** A live token that expires within this is marked "Expires soon". */
const SOON_MS = 7 * 24 * 3600 * 1000;

type TokenSort = 'created' | 'last-used';
const lastUsed = (token: TokenRecord) => (token.last_used_at ? Date.parse(token.last_used_at) : 0);
const SORTS: Record<TokenSort, (a: TokenRecord, b: TokenRecord) => number> = {
  created: (a, b) => b.created_at.localeCompare(a.created_at),
  'last-used': (a, b) => lastUsed(b) - lastUsed(a) || b.created_at.localeCompare(a.created_at),
};

export function TokensView(props: {
  connectionKey: number;
  stale: boolean;
  active: boolean;
  /** The service's address, for the CI snippet. */
  serviceUrl: string | undefined;
}) {
  const [list, setList] = useState<TokenListView>();
  const [loadError, setLoadError] = useState<IpcError>();
  const [created, setCreated] = useState<CreatedToken>();
  const [revoking, setRevoking] = useState<TokenRecord>();
  const [loadedAt, setLoadedAt] = useState<number>();
  const [sort, setSort] = useState<TokenSort>('created');

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

  const now = Date.now();
  const live = list?.tokens.filter((t) => !isExpired(t.expires_at, now)).sort(SORTS[sort]) ?? [];
  const expired = list?.tokens.filter((t) => isExpired(t.expires_at, now)) ?? [];

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
        <CreatedSecret token={created} serviceUrl={props.serviceUrl} onDone={() => setCreated(undefined)} />
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
        <div class="card-head">
          <h3 class="card-title" id="tokens-list-title" ref={listTitle} tabIndex={-1}>
            Active tokens {list && <span class="count">{live.length}</span>}
          </h3>
          <div class="field inline">
            <label for="token-sort">Sort</label>
            <select id="token-sort" value={sort} onChange={(e) => setSort(e.currentTarget.value as TokenSort)}>
              <option value="created">Newest first</option>
              <option value="last-used">Last used first</option>
            </select>
          </div>
        </div>
        {props.stale && list && <StaleNote loadedAt={loadedAt} what="tokens" />}
        {/* A failed reload keeps the list it had: only a first load that failed shows the error. */}
        {loadError && !list ? (
          <ErrorPanel error={loadError} onRetry={() => void load()} />
        ) : !list ? (
          <Loading label="Loading tokens…" />
        ) : live.length === 0 ? (
          <EmptyState title="No active review tokens" icon="⚿">
            Create one above for each tool that talks to the service, so you can revoke them one at a time.
          </EmptyState>
        ) : (
          <TokenTable
            tokens={live}
            appTokenId={list.appTokenId}
            now={now}
            onRevoke={setRevoking}
            label="Active tokens"
          />
        )}
      </div>
      {expired.length > 0 && (
        <div class="card expired-tokens">
          <h3 class="card-title" id="tokens-expired-title">
            Expired tokens <span class="count">{expired.length}</span>
          </h3>
          <p class="muted small">These no longer work. Revoke them to tidy the list.</p>
          <TokenTable
            tokens={expired}
            appTokenId={list?.appTokenId ?? null}
            now={now}
            onRevoke={setRevoking}
            label="Expired tokens"
          />
        </div>
      )}
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

function TokenTable(props: {
  tokens: TokenRecord[];
  appTokenId: string | null;
  now: number;
  label: string;
  onRevoke: (token: TokenRecord) => void;
}) {
  const { now } = props;
  return (
    <div class="table-wrap">
      <table class="table" aria-label={props.label}>
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
          {props.tokens.map((token) => {
            const expired = isExpired(token.expires_at, now);
            const soon = !expired && token.expires_at !== null && Date.parse(token.expires_at) - now < SOON_MS;
            return (
              <tr key={token.id} class={expired ? 'expired' : undefined} data-token-id={token.id}>
                <th scope="row" class="token-name">
                  <span class="name-text" title={token.name}>
                    {token.name}
                  </span>
                  {token.id === props.appTokenId && <span class="badge neutral">Used by this app</span>}
                  {expired && <span class="badge status-failed">Expired</span>}
                  {soon && <span class="badge severity-warning">Expires soon</span>}
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
                <td class="date" title={formatDateTime(token.created_at)}>
                  {formatDate(token.created_at)}
                </td>
                <td class="date" title={token.expires_at ? formatDateTime(token.expires_at) : undefined}>
                  {token.expires_at === null
                    ? 'Never'
                    : expired
                      ? `Expired ${formatDate(token.expires_at)}`
                      : formatDate(token.expires_at)}
                </td>
                <td class="date" title={token.last_used_at ? formatDateTime(token.last_used_at) : undefined}>
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
