// Whole numbers in messages with thousands separators ("10,485,760"), as toLocaleString('en')
// writes them, without ICU: a process's first toLocaleString loads ICU's data (test/bench/README.md), and the limits' texts are
// built when their modules load, on every `diff-review review`.

/** `value` (an integer) with a comma every three digits from the right. */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
