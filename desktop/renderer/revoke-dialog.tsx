/** @jsxImportSource preact */
// Revoking a token asks first; a failure stays in the dialog, whose confirm button tries again.
import { useState } from 'preact/hooks';
import type { TokenRecord } from '../shared/ipc-contract.ts';
import { ConfirmDialog } from './components.tsx';
import { invoke } from './ipc.ts';

export function RevokeDialog(props: { token: TokenRecord; isAppToken: boolean; onClose: (revoked: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <ConfirmDialog
      title={`Revoke “${props.token.name}”?`}
      confirmLabel={error ? 'Try again' : 'Revoke token'}
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
