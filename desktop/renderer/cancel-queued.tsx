/** @jsxImportSource preact */
// "Cancel all queued": stops every review still waiting (the service's whole queue of this
// owner, not only the loaded rows), after asking.
import { useState } from 'preact/hooks';
import { ConfirmDialog, useFlash } from './components.tsx';
import { invoke } from './ipc.ts';

export function CancelQueued(props: { queued: number; onDone: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [flash, setFlash] = useFlash(4000);
  return (
    <>
      <span class="flash" role="status" aria-live="polite">
        {flash ?? ''}
      </span>
      {props.queued > 0 && (
        <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
          Cancel all queued
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title="Cancel every queued review?"
          confirmLabel={error ? 'Try again' : 'Cancel queued reviews'}
          busy={busy}
          error={error}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            setBusy(true);
            const result = await invoke('reviews:cancelQueued');
            setBusy(false);
            if (!result.ok) return setError(result.error.message);
            setConfirming(false);
            setError(undefined);
            setFlash(`Cancelled ${result.value.cancelled} queued review${result.value.cancelled === 1 ? '' : 's'}`);
            props.onDone();
          }}
        >
          <p>
            Every review still waiting for a reviewer stops now ({props.queued} shown here; any others queued by your
            tokens too). Running reviews go on.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
