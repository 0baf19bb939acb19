// One call after a burst of events (several saves at once, a run of diagnostic changes), with the
// pending call cancelled on dispose.
import type * as vscode from 'vscode';

export function onEventDebounced<T>(
  event: vscode.Event<T>,
  delayMs: number,
  action: (value: T) => void,
  /** Events that do not pass are ignored: they neither call nor postpone the action. */
  accept: (value: T) => boolean = () => true,
): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const listener = event((value) => {
    if (!accept(value)) return;
    clearTimeout(timer);
    timer = setTimeout(() => action(value), delayMs);
  });
  return {
    dispose: () => {
      clearTimeout(timer);
      listener.dispose();
    },
  };
}
