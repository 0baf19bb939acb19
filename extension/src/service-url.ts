// The "Service URL" setting checked the way package.json's `pattern` checks it as it is typed, so a
// value set in settings.json by hand gets the same clear message. No vscode import.

/** The service's own port (`diff-review serve`), for examples. */
const EXAMPLE_URL = 'http://127.0.0.1:7411';

/** Empty (the bundled service), or http(s)://host[/path]: the manifest's `pattern` for the setting, as written there. */
export const SERVICE_URL_PATTERN = '^$|^https?://[^\\s/]+(/\\S*)?$';
const serviceUrlPattern = new RegExp(SERVICE_URL_PATTERN);

/** Why `url` cannot be used as the service URL, or undefined when it can. */
export function serviceUrlProblem(url: string): string | undefined {
  if (serviceUrlPattern.test(url)) {
    try {
      if (url === '' || new URL(url)) return undefined;
    } catch {
      // Fits the pattern but not a URL (a bad port, say): said below.
    }
  }
  return `"Diff Review: Service URL" is not a URL: ${url}. Write it with its scheme, such as ${EXAMPLE_URL}.`;
}
