/** @jsxImportSource preact */
// First start (and "Change connection"): the built-in service or a service somewhere else; and
// the indicator and banner that keep the connection's state visible.
import { useState } from 'preact/hooks';
import type { ConnectionState, IpcError } from '../shared/ipc-contract.ts';
import { ConfirmDialog, errorAria, FieldError, useFlash, useNow } from './components.tsx';
import { invoke } from './ipc.ts';

export function ConnectionSetup(props: { state: Extract<ConnectionState, { phase: 'setup' | 'connecting' }> }) {
  const { state } = props;
  const [mode, setMode] = useState<'built-in' | 'remote'>('built-in');
  const [url, setUrl] = useState(state.phase === 'setup' ? (state.lastUrl ?? '') : '');
  const [token, setToken] = useState('');
  const [error, setError] = useState<IpcError>();
  // The address main refused as cleartext, and whether the user then confirmed it (for that address only).
  const [cleartextUrl, setCleartextUrl] = useState<string>();
  const [allowCleartext, setAllowCleartext] = useState(false);
  const busy = state.phase === 'connecting';
  const asksCleartext = cleartextUrl !== undefined && cleartextUrl === url;
  const usesSavedToken =
    state.phase === 'setup' &&
    state.savedToken === true &&
    !!state.lastUrl &&
    url.trim().replace(/\/+$/, '') === state.lastUrl;

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const choice =
      mode === 'built-in'
        ? { mode }
        : { mode, url, dashboardToken: token, ...(asksCleartext && allowCleartext ? { allowCleartext: true } : {}) };
    const result = await invoke('connection:connect', choice);
    if (!result.ok) {
      setError(result.error);
      if (result.error.code === 'cleartext') {
        setCleartextUrl(url);
        setAllowCleartext(false);
      }
    } else setToken('');
  };
  const fieldError = (field: string) => (error?.field === field ? error.message : undefined);
  const generalError = error && !error.field ? error.message : undefined;

  return (
    <main class="setup" aria-labelledby="setup-title">
      <div class="setup-card">
        <h1 id="setup-title">Connect to Diff Review</h1>
        <p class="muted">Choose where your reviews run. You can change this later.</p>
        {state.phase === 'setup' && state.reason && (
          <p class="panel panel-warning" role="alert">
            {state.reason}
          </p>
        )}
        <form onSubmit={submit} aria-busy={busy}>
          <fieldset class="choices" disabled={busy}>
            <legend class="visually-hidden">Service</legend>
            <label class={`choice ${mode === 'built-in' ? 'selected' : ''}`}>
              <input
                type="radio"
                name="mode"
                value="built-in"
                checked={mode === 'built-in'}
                onChange={() => setMode('built-in')}
              />
              <span>
                <span class="choice-title">Use the built-in service</span>
                <span class="choice-text">
                  Recommended. The app runs the service itself, on this computer only. Nothing to set up.
                </span>
              </span>
            </label>
            <label class={`choice ${mode === 'remote' ? 'selected' : ''}`}>
              <input
                type="radio"
                name="mode"
                value="remote"
                checked={mode === 'remote'}
                onChange={() => setMode('remote')}
              />
              <span>
                <span class="choice-title">Connect to a service</span>
                <span class="choice-text">A Diff Review service started elsewhere, e.g. with “diff-review serve”.</span>
              </span>
            </label>
          </fieldset>
          {mode === 'remote' && (
            <div class="fields">
              <div class="field">
                <label for="service-url">Service address</label>
                <input
                  id="service-url"
                  type="url"
                  required
                  placeholder="http://127.0.0.1:7411"
                  value={url}
                  onInput={(e) => setUrl(e.currentTarget.value)}
                  {...errorAria('service-url-error', fieldError('url'))}
                  disabled={busy}
                />
                <FieldError id="service-url-error" error={fieldError('url')} />
                {asksCleartext && (
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={allowCleartext}
                      onChange={(e) => setAllowCleartext(e.currentTarget.checked)}
                      disabled={busy}
                    />
                    <span>Send the token unencrypted anyway: this network is trusted</span>
                  </label>
                )}
              </div>
              <div class="field">
                <label for="dashboard-token">Dashboard token</label>
                <input
                  id="dashboard-token"
                  type="password"
                  required={!usesSavedToken}
                  autocomplete="off"
                  spellcheck={false}
                  value={token}
                  onInput={(e) => setToken(e.currentTarget.value)}
                  aria-invalid={fieldError('dashboardToken') ? true : undefined}
                  aria-describedby={`dashboard-token-hint${fieldError('dashboardToken') ? ' dashboard-token-error' : ''}`}
                  disabled={busy}
                />
                <p id="dashboard-token-hint" class="hint">
                  {usesSavedToken
                    ? 'Leave it empty to use the saved dashboard token for this address.'
                    : 'The service writes it to the file “dashboard-token” in its data folder.'}{' '}
                  {state.phase === 'setup' && !state.secureStorage
                    ? 'This system offers no encrypted storage, so the app keeps it for this session only.'
                    : 'The app keeps it encrypted by your system’s keychain.'}
                </p>
                <FieldError id="dashboard-token-error" error={fieldError('dashboardToken')} />
              </div>
            </div>
          )}
          {generalError && (
            <p class="field-error" role="alert">
              {generalError}
            </p>
          )}
          <div class="actions">
            <button type="submit" class="button primary" disabled={busy}>
              {busy ? 'Connecting…' : mode === 'built-in' ? 'Start the built-in service' : 'Connect'}
            </button>
          </div>
        </form>
      </div>
    </main>
  );
}

/** Always in the header: where the app is connected, or that it is not. */
export function ConnectionIndicator(props: { state: ConnectionState }) {
  const { state } = props;
  // The built-in service's address is shown too: other tools (the CLI, the extension) can use it.
  const where =
    state.phase === 'setup'
      ? ''
      : state.mode === 'built-in'
        ? `Built-in service${state.phase === 'connected' ? ` at ${state.url}` : ''}`
        : (state.url ?? '');
  const [copied, setCopied] = useFlash();
  const label =
    state.phase === 'connected'
      ? `Connected · ${where}`
      : state.phase === 'offline'
        ? `Offline · ${where}`
        : state.phase === 'connecting'
          ? 'Connecting…'
          : 'Not connected';
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <div
        class={`connection connection-${state.phase}`}
        role="status"
        aria-live="polite"
        title={state.phase === 'connected' ? `${state.url} (service ${state.version})` : undefined}
      >
        <span class="dot" aria-hidden="true" />
        <span class="connection-label">{label}</span>
        {state.phase === 'connected' && (
          <button
            type="button"
            class="link-button"
            aria-label="Copy the service's address"
            onClick={async () => {
              const result = await invoke('clipboard:writeText', state.url);
              setCopied(result.ok ? 'Copied' : result.error.message);
            }}
          >
            {copied ?? 'Copy address'}
          </button>
        )}
        {state.phase !== 'setup' && state.phase !== 'connecting' && (
          <button type="button" class="link-button" onClick={() => setConfirming(true)}>
            Change
          </button>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title="Change the connection?"
          confirmLabel="Change connection"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void invoke('connection:change');
          }}
        >
          <p>The app disconnects from {where} and shows the setup screen. Unsaved work in the window is lost.</p>
          {state.phase !== 'setup' && state.mode === 'remote' && (
            <p class="muted">
              The dashboard token stays saved for this address: connecting to it again needs no token.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

export function OfflineBanner(props: { state: Extract<ConnectionState, { phase: 'offline' }> }) {
  const now = useNow(true, 500);
  const [retrying, setRetrying] = useState(false);
  const seconds = Math.max(0, Math.ceil((props.state.retryAt - now) / 1000));
  return (
    <div class="banner" role="alert">
      <span>
        <strong>Connection lost.</strong> {props.state.message}{' '}
        {retrying || seconds === 0
          ? 'Trying again…'
          : `Trying again in ${seconds} s${props.state.attempt > 0 ? ` (attempt ${props.state.attempt + 1})` : ''}.`}
      </span>
      <button
        type="button"
        class="button"
        disabled={retrying}
        onClick={async () => {
          setRetrying(true);
          await invoke('connection:retry');
          setRetrying(false);
        }}
      >
        Retry now
      </button>
    </div>
  );
}
