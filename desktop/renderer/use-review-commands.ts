// The review dashboard's keyboard: the application menu's commands (sent by main as
// 'menu:command') and their one-key shortcuts on the page: / search, j and k move, Esc back.
// Typing in a field is never taken over; j and k inside the list are the list's own (job-list.tsx).
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { MenuCommand } from '../shared/ipc-contract.ts';
import { bridge } from './ipc.ts';

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && !!target.closest('input, textarea, select, [contenteditable="true"]');

const KEYS: Record<string, MenuCommand> = { '/': 'focus-search', j: 'next-review', k: 'previous-review' };

export function useReviewCommands(options: {
  command: (name: MenuCommand) => void;
  /** The reviews tab is shown: only then do its keys apply ("New review" always does). */
  active: boolean;
  searchRef: RefObject<HTMLInputElement | null>;
}): void {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const run = (name: MenuCommand) => latest.current.command(name);
    const offMenu = bridge().on('menu:command', (name) => {
      if (latest.current.active || name === 'new-review') run(name);
    });
    const onKey = (event: KeyboardEvent) => {
      if (!latest.current.active || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (document.querySelector('dialog[open]')) return;
      if (event.key === 'Escape') {
        if (typing(event.target) && event.target !== latest.current.searchRef.current) return;
        return run('back-to-list');
      }
      const name = KEYS[event.key];
      if (!name || typing(event.target)) return;
      event.preventDefault();
      run(name);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      offMenu();
      document.removeEventListener('keydown', onKey);
    };
  }, []);
}
