/** @jsxImportSource preact */
// Small pieces shared by the views: badges, messages, empty and loading states, a confirm dialog.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { IpcError, ReviewStatus } from '../shared/ipc-contract.ts';
import { isTerminalStatus } from '../../service/api/review-status.ts';
import type { Severity } from '../../service/api/schemas.ts';

const STATUS_LABEL: Record<ReviewStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};

export function StatusBadge(props: { status: ReviewStatus; cancelled?: boolean }) {
  const label = props.cancelled ? 'Cancelled' : STATUS_LABEL[props.status];
  return (
    <span class={`badge status-${props.cancelled ? 'cancelled' : props.status}`}>
      {!isTerminalStatus(props.status) && <span class="pulse" aria-hidden="true" />}
      {label}
    </span>
  );
}

const SEVERITY_LABEL: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

export function SeverityBadge(props: { severity: Severity; count?: number }) {
  const label = SEVERITY_LABEL[props.severity];
  return (
    <span
      class={`badge severity-${props.severity}`}
      title={props.count === undefined ? label : `${props.count} ${label.toLowerCase()}`}
    >
      {props.count === undefined
        ? label
        : `${props.count} ${props.count === 1 || props.severity === 'info' ? label.toLowerCase() : `${label.toLowerCase()}s`}`}
    </span>
  );
}

/** A message for a form field, referenced by the field's aria-describedby. */
export function FieldError(props: { id: string; error?: string }) {
  if (!props.error) return null;
  return (
    <p id={props.id} class="field-error" role="alert">
      {props.error}
    </p>
  );
}

/** The attributes that tie a field to its FieldError while it has one (spread them on the field). */
export const errorAria = (errorId: string, error: string | undefined) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};

/** Failures that may go away by themselves: the network, a timeout, a busy or failing service. */
export const isRetryable = (error: IpcError) =>
  error.kind === 'network' ||
  error.kind === 'timeout' ||
  (error.kind === 'api' && (error.status === 408 || error.status === 429 || (error.status ?? 0) >= 500));

export function ErrorPanel(props: { error: IpcError; title?: string; onRetry?: () => void }) {
  // The service said when to come back (Retry-After): the button counts down to it.
  const until = useMemo(
    () => (props.error.retryAfterSeconds ? Date.now() + props.error.retryAfterSeconds * 1000 : 0),
    [props.error],
  );
  const now = useNow(!!props.onRetry && until > Date.now(), 1000);
  const wait = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <div class="panel panel-error" role="alert">
      <p class="panel-title">{props.title ?? titleOf(props.error)}</p>
      <p>{props.error.message}</p>
      {props.onRetry && (
        <button
          type="button"
          class="button"
          onClick={() => wait === 0 && props.onRetry?.()}
          aria-disabled={wait > 0 || undefined}
        >
          {wait > 0 ? `Try again (in ${wait} s)` : 'Try again'}
        </button>
      )}
    </div>
  );
}

function titleOf(error: IpcError): string {
  switch (error.kind) {
    case 'network':
      return 'The service cannot be reached';
    case 'timeout':
      return 'The service did not answer in time';
    case 'api':
      return error.status === 401 || error.status === 403
        ? 'The service refused the request'
        : 'The service could not do that';
    case 'git':
      return 'Git could not make the diff';
    default:
      return 'That did not work';
  }
}

/** Above data kept while the service cannot be reached: what it is and how old. */
export function StaleNote(props: { loadedAt: number | undefined; what: string }) {
  const at = props.loadedAt === undefined ? '' : ` at ${new Date(props.loadedAt).toLocaleTimeString()}`;
  return (
    <p class="stale-note" role="note">
      Showing what was loaded{at}: these {props.what} may be out of date until the service is back.
    </p>
  );
}

export function EmptyState(props: { title: string; children?: ComponentChildren; icon?: string }) {
  return (
    <div class="empty">
      <div class="empty-icon" aria-hidden="true">
        {props.icon ?? '◇'}
      </div>
      <p class="empty-title">{props.title}</p>
      {props.children && <div class="empty-body">{props.children}</div>}
    </div>
  );
}

export function Loading(props: { label: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{props.label}</span>
    </div>
  );
}

/** A modal confirmation on the native <dialog>: focus moves in and is trapped, Escape cancels, focus returns. */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  busy?: boolean;
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // What opened the dialog, taken during the first render (before anything in the dialog can take
  // the focus): focus goes back there when the dialog goes away. The dialog is removed rather
  // than just closed, so the browser's own focus restoring does not apply.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      {props.error && (
        <p class="field-error" role="alert">
          {props.error}
        </p>
      )}
      <div class="dialog-actions">
        <button type="button" class="button" onClick={props.onCancel} ref={cancelRef}>
          Cancel
        </button>
        <button type="button" class="button danger" onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** The current time, updated every `everyMs` while `active`. */
export function useNow(active: boolean, everyMs = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

/** A short "Copied" confirmation after a copy button was used. */
export function useFlash(ms = 2000): [string | undefined, (message: string) => void] {
  const [message, setMessage] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [
    message,
    (next: string) => {
      setMessage(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setMessage(undefined), ms);
    },
  ];
}
