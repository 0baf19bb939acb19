// What must never reach a log line: our secrets. Log lines are built from fields that should not
// hold one (no serializer logs headers or bodies), but a client can put a token anywhere (a query
// string, a path, a name), and an error message can quote it. So every line is searched, as text,
// for anything shaped like a token, whoever wrote it; pino's `redact` covers known field paths only.

/** `drv_` (or `drv%5F`, percent-encoded) and base62: a token or any part of one. */
const TOKEN_SHAPE = /drv(?:_|%5[Ff])[0-9A-Za-z]+/g;

/** The line with every token-shaped string replaced; the line itself when it holds none (the usual case: one `indexOf`). */
export function redactSecrets(line: string): string {
  return line.indexOf('drv') === -1 ? line : line.replace(TOKEN_SHAPE, 'drv_[redacted]');
}
