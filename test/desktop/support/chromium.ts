// Debian's Chromium for the renderer tests. Missing Chromium skips them with a reason, except in
// CI (CI=true), where it is a failure: CI must install it (apt-get install -y chromium).
import { existsSync } from 'node:fs';

export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate));
}

export const inCI = () => /^(1|true)$/i.test(process.env.CI ?? '');

export const MISSING_CHROMIUM =
  'Skipping the desktop renderer tests: no Chromium found (set CHROMIUM, or run `apt-get install -y chromium`). ' +
  'With CI=true this is a failure instead.';
