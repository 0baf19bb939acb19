/** @jsxImportSource preact */
// The bar above the review list: free-text search, status (every status's total from the first
// page, each status's count once every review is loaded), repository (part of a name, any case),
// sort and grouping by repository; two compact rows.
import type { Ref } from 'preact';
import {
  NO_FILTERS,
  type ReviewFilters,
  SORT_LABELS,
  type SortKey,
  STATUS_FACETS,
  type StatusFacet,
} from './review-query.ts';

const FACET_LABEL: Record<StatusFacet | '', string> = {
  '': 'All',
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function FilterBar(props: {
  /** What the inputs show (typing is applied after a pause, see ReviewsView). */
  input: ReviewFilters;
  onInput: (change: Partial<ReviewFilters>) => void;
  /** Per status, once every review is loaded. */
  counts: Record<StatusFacet | '', number> | undefined;
  /** The service's count of every status's reviews (from the first page), before the counts come. */
  allTotal: number | undefined;
  searchRef: Ref<HTMLInputElement>;
}) {
  const { input, counts } = props;
  const count = (facet: StatusFacet | '') => (counts ? counts[facet] : facet === '' ? props.allTotal : undefined);
  const label = (facet: StatusFacet | '') => {
    const n = count(facet);
    return `${FACET_LABEL[facet]}${n === undefined ? '' : ` (${n})`}`;
  };
  return (
    // Two rows, labels for assistive technology only (placeholders and the choices say what each
    // is): the filters take ~90 px of the list's height, not ~220.
    // biome-ignore lint/a11y/useSemanticElements: Preact's JSX types have no <search> element; the role says the same
    <div class="filters" role="search" aria-label="Find reviews">
      <div class="filter-row">
        <label class="visually-hidden" for="filter-text">
          Search
        </label>
        <input
          id="filter-text"
          class="grow"
          ref={props.searchRef}
          type="search"
          placeholder="Search (/): id, rule, file…"
          title="Review id, repository, rule, file or message. Press / to come here from anywhere."
          value={input.text}
          onInput={(e) => props.onInput({ text: e.currentTarget.value })}
        />
        <label class="visually-hidden" for="filter-status">
          Status
        </label>
        {/* A fixed width: the counts that come once every review is loaded never move what is beside it. */}
        <select
          id="filter-status"
          value={input.status}
          onChange={(e) => props.onInput({ status: e.currentTarget.value as StatusFacet | '' })}
        >
          {(['', ...STATUS_FACETS] as const).map((facet) => (
            <option key={facet} value={facet}>
              {label(facet)}
            </option>
          ))}
        </select>
      </div>
      <div class="filter-row">
        <label class="visually-hidden" for="filter-repository">
          Repository
        </label>
        <input
          id="filter-repository"
          class="grow"
          type="search"
          placeholder="Repository"
          title="Part of a repository's name, e.g. acme/widgets (any case)"
          value={input.repository}
          onInput={(e) => props.onInput({ repository: e.currentTarget.value })}
        />
        <label class="visually-hidden" for="filter-sort">
          Sort
        </label>
        <select
          id="filter-sort"
          value={input.sort}
          onChange={(e) => props.onInput({ sort: e.currentTarget.value as SortKey })}
        >
          {(Object.keys(SORT_LABELS) as SortKey[]).map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
        <label class="check filter-group" title="Group by repository">
          <input
            id="filter-group"
            type="checkbox"
            checked={input.group}
            onChange={(e) => props.onInput({ group: e.currentTarget.checked })}
          />
          <span>
            Group<span class="visually-hidden"> by repository</span>
          </span>
        </label>
      </div>
    </div>
  );
}

export const isFiltered = (filters: ReviewFilters) =>
  filters.status !== NO_FILTERS.status || filters.repository !== '' || filters.text !== '';
