/** @jsxImportSource preact */
// The window: header (title, tabs, connection indicator), the offline banner, and the views.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConnectionState } from '../shared/ipc-contract.ts';
import { Loading } from './components.tsx';
import { ConnectionIndicator, ConnectionSetup, OfflineBanner } from './connection-view.tsx';
import { bridge, invoke } from './ipc.ts';
import { ReviewsView } from './reviews-view.tsx';
import { TokensView } from './tokens-view.tsx';

type Tab = 'reviews' | 'tokens';
const TABS: { id: Tab; label: string }[] = [
  { id: 'reviews', label: 'Reviews' },
  { id: 'tokens', label: 'Tokens' },
];

export function App() {
  const [state, setState] = useState<ConnectionState>();
  const [tab, setTab] = useState<Tab>('reviews');
  // Bumped on every (re)connect, so views reload what they show.
  const [connectionKey, setConnectionKey] = useState(0);
  const lastPhase = useRef<string>(undefined);

  useEffect(() => {
    const apply = (next: ConnectionState) => {
      if (next.phase === 'connected' && lastPhase.current !== 'connected') setConnectionKey((k) => k + 1);
      lastPhase.current = next.phase;
      setState(next);
    };
    const off = bridge().on('connection:changed', apply);
    void invoke('connection:get').then((result) => result.ok && apply(result.value));
    // The menu's section commands (the reviews view carries out the rest).
    const offMenu = bridge().on('menu:command', (command) => {
      if (command === 'show-tokens') setTab('tokens');
      else if (command === 'show-reviews' || command === 'new-review') setTab('reviews');
    });
    return () => {
      off();
      offMenu();
    };
  }, []);

  if (!state) return <Loading label="Starting…" />;
  // Setup until a first connection; a reconnect keeps the views (behind a banner).
  if (state.phase === 'setup' || (state.phase === 'connecting' && connectionKey === 0)) {
    return (
      <div class="app">
        <ConnectionSetup state={state} />
      </div>
    );
  }

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const index = TABS.findIndex((t) => t.id === tab);
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? TABS.length - 1
          : (index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    setTab(TABS[next]!.id);
    document.getElementById(`tab-${TABS[next]!.id}`)?.focus();
  };

  // While offline the views keep what they loaded, marked as such.
  const stale = state.phase === 'offline' || state.phase === 'connecting';

  return (
    <div class="app">
      <header class="topbar">
        <h1 class="brand">
          <span class="logo" aria-hidden="true">
            ±
          </span>
          <span class="brand-name">Diff Review</span>
        </h1>
        <div class="tabs" role="tablist" aria-label="Sections" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t.id}
              id={`tab-${t.id}`}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              class="tab"
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <ConnectionIndicator state={state} />
      </header>
      {state.phase === 'offline' && <OfflineBanner state={state} />}
      <main class="content">
        {/* Both views stay mounted (the other one hidden): a tab switch keeps filters, loaded
            pages, the selection, a half-typed form and a secret not yet copied. */}
        {TABS.map((t) => (
          <div
            key={t.id}
            id={`panel-${t.id}`}
            role="tabpanel"
            aria-labelledby={`tab-${t.id}`}
            class="tabpanel"
            hidden={tab !== t.id}
          >
            {t.id === 'reviews' ? (
              <ReviewsView connectionKey={connectionKey} stale={stale} active={tab === 'reviews'} />
            ) : (
              <TokensView
                connectionKey={connectionKey}
                stale={stale}
                active={tab === 'tokens'}
                serviceUrl={'url' in state ? state.url : undefined}
              />
            )}
          </div>
        ))}
      </main>
    </div>
  );
}
