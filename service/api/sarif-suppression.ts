// How a suppressed finding's reason travels in SARIF: as the suppression's justification, or,
// when the comment gave none, "<marker> on the line". The engine writes it; the CLI's --service
// mode and the desktop app read it back from the service's SARIF.

/** The justification of a suppression by `by` (diff-review-ignore, nosemgrep, …) with its reason, if any. */
export function justificationOf(by: string, reason: string | undefined): string {
  return reason ?? `${by} on the line`;
}

/** The reason a justification carries, or undefined when the comment gave none. */
export function reasonOf(by: string, justification: string | undefined): string | undefined {
  return justification === undefined || justification === '' || justification === justificationOf(by, undefined)
    ? undefined
    : justification;
}
