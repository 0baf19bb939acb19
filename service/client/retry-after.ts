// Retry-After (RFC 9110 §10.2.3): either delay seconds or an HTTP date.

/**
 * Seconds to wait according to a `Retry-After` header value, or undefined when it is absent or
 * malformed. A date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // Only date-shaped values: Date.parse would otherwise accept strings like "1.5" or "soon 3".
  if (!/^[A-Za-z]{3},? /.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
