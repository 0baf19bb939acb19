import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_PORTS } from '../../extension/src/bundled-service.ts';
import { SERVICE_URL_PATTERN, serviceUrlProblem } from '../../extension/src/service-url.ts';

const manifest = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '..', '..', 'extension', 'package.json'), 'utf8'),
);

describe('the service URL setting', () => {
  it('is checked by the same pattern as the Settings editor checks it', () => {
    expect(manifest.contributes.configuration[0].properties['diffReview.serviceUrl'].pattern).toBe(SERVICE_URL_PATTERN);
  });

  it('takes empty and http(s) URLs, and explains anything else with an example on our port', () => {
    for (const good of ['', 'http://127.0.0.1:7411', 'https://review.example.com/diff-review/'])
      expect(serviceUrlProblem(good)).toBeUndefined();
    for (const bad of ['127.0.0.1:7411', 'localhost', 'ftp://host', 'http://', 'http://host:99999']) {
      expect(serviceUrlProblem(bad)).toBe(
        `"Diff Review: Service URL" is not a URL: ${bad}. Write it with its scheme, such as http://127.0.0.1:7411.`,
      );
    }
  });
});

describe("the bundled service's ports", () => {
  it('are the range package.json keeps from being auto-forwarded', () => {
    const attributes = manifest.contributes.configurationDefaults['remote.portsAttributes'];
    expect(attributes[`${BUNDLED_PORTS.first}-${BUNDLED_PORTS.last}`]).toEqual({
      label: 'Diff Review (bundled service)',
      onAutoForward: 'ignore',
    });
  });
});
