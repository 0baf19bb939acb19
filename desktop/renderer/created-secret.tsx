/** @jsxImportSource preact */
// A new token's secret, shown once until the user dismisses it, with a ready snippet for CI.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreatedToken } from '../shared/ipc-contract.ts';
import { useFlash } from './components.tsx';
import { formatDate } from './time-format.ts';
import { invoke } from './ipc.ts';

export function CreatedSecret(props: { token: CreatedToken; serviceUrl: string | undefined; onDone: () => void }) {
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
      {props.serviceUrl && <CiSnippet url={props.serviceUrl} secret={props.token.token} />}
    </section>
  );
}

/** The two variables the CLI reads (`diff-review review`), ready to paste into a CI secret store. */
export const ciSnippet = (url: string, secret: string) => `DIFF_REVIEW_URL=${url}\nDIFF_REVIEW_TOKEN=${secret}`;

function CiSnippet(props: { url: string; secret: string }) {
  const [flash, setFlash] = useFlash();
  const text = ciSnippet(props.url, props.secret);
  return (
    <div class="ci-snippet">
      <p class="small">
        For CI: set these two variables (the token as a secret), then run <code>diff-review review</code>.
      </p>
      <textarea class="mono" readOnly rows={2} aria-label="CI settings" value={text} />
      <button
        type="button"
        class="button small"
        onClick={async () => {
          const result = await invoke('clipboard:writeText', text);
          setFlash(result.ok ? 'CI settings copied' : result.error.message);
        }}
      >
        Copy for CI
      </button>{' '}
      <span class="flash" role="status" aria-live="polite">
        {flash ?? ''}
      </span>
    </div>
  );
}
