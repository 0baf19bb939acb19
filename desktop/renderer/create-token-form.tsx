/** @jsxImportSource preact */
// The form that creates a review token: name (the service's 100-character limit, a duplicate
// name warned), scopes and expiry.
import { useState } from 'preact/hooks';
import { TOKEN_EXPIRY_CHOICES, type CreatedToken, type IpcError, type ReviewScope } from '../shared/ipc-contract.ts';
import { ErrorPanel, errorAria, FieldError, isRetryable } from './components.tsx';
import { invoke } from './ipc.ts';

/** The service's limit on a token's name (1–100 characters, as the OpenAPI document says). */
const TOKEN_NAME_MAX = 100;

const EXPIRY_LABEL = (days: number | null) => (days === null ? 'Never' : `${days} days`);

export function CreateTokenForm(props: { existingNames: string[]; onCreated: (token: CreatedToken) => void }) {
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
            {...errorAria('token-name-error', nameError)}
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
      {generalError && (
        <ErrorPanel
          error={generalError}
          onRetry={isRetryable(generalError) ? () => void submit(new Event('submit')) : undefined}
        />
      )}
    </form>
  );
}
