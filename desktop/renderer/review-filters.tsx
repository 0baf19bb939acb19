/** @jsxImportSource preact */
// The bar above the review list: free-text search, status (with counts once every review is
// loaded), repository (part of a name, any case), sort and grouping by repository.
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
  searchRef: Ref<HTMLInputElement>;
}) {
  const { input, counts } = props;
  const label = (facet: StatusFacet | '') => `${FACET_LABEL[facet]}${counts ? ` (${counts[facet]})` : ''}`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: Preact's JSX types have no <search> element; the role says the same
    <div class="filters" role="search" aria-label="Find reviews">
      <div class="field grow search-field">
        <label for="filter-text">
          Search <kbd class="muted">/</kbd>
        </label>
        <input
          id="filter-text"
          ref={props.searchRef}
          type="search"
          placeholder="Id, repository, rule, file or message"
          value={input.text}
          onInput={(e) => props.onInput({ text: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="filter-status">Status</label>
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
      <div class="field grow">
        <label for="filter-repository">Repository</label>
        <input
          id="filter-repository"
          type="search"
          placeholder="acme/widgets"
          value={input.repository}
          onInput={(e) => props.onInput({ repository: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="filter-sort">Sort</label>
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
      </div>
      <label class="check filter-group">
        <input
          id="filter-group"
          type="checkbox"
          checked={input.group}
          onChange={(e) => props.onInput({ group: e.currentTarget.checked })}
        />
        <span>Group by repository</span>
      </label>
    </div>
  );
}

export const isFiltered = (filters: ReviewFilters) =>
  filters.status !== NO_FILTERS.status || filters.repository !== '' || filters.text !== '';
