/// <reference types="mocha" />
// The bundled service's token: the extension makes its own, with an expiry, and Sign Out revokes
// it on the service rather than leaving it behind.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { dashboardTokenFile } from '../../../../service/auth/dashboard-token.ts';
import { createClient } from '../../../../service/client/index.ts';
import { api, review, shared } from './host-helpers.ts';

/** The extension's tokens on the bundled service, as the dashboard sees them. */
async function extensionTokens() {
  assert.ok(shared.bundledUrl, 'an earlier review started the bundled service');
  const dashboard = readFileSync(dashboardTokenFile(api().bundledServiceDataDir), 'utf8').trim();
  const { tokens } = await createClient({ baseUrl: shared.bundledUrl, token: dashboard }).listTokens();
  return tokens.filter((token) => token.name === 'VS Code extension');
}

suite("The bundled service's token", () => {
  test('Sign Out revokes the token it replaces; the new one expires', async () => {
    assert.equal((await review()).outcome, 'completed');
    const before = await extensionTokens();
    assert.equal(before.length, 1, `one token of the extension: ${JSON.stringify(before)}`);

    for (let round = 0; round < 2; round++) {
      await vscode.commands.executeCommand('diffReview.signOut');
      const result = await review();
      assert.equal(result.outcome, 'completed', JSON.stringify(result));
    }
    const after = await extensionTokens();
    assert.equal(after.length, 1, `the old tokens are revoked, not orphaned: ${JSON.stringify(after)}`);
    assert.ok(!before.some((token) => token.id === after[0]!.id), 'a new token');
    const expires = Date.parse(after[0]!.expires_at ?? '');
    assert.ok(Number.isFinite(expires), `it expires: ${after[0]!.expires_at}`);
    assert.ok(expires > Date.now() + 20 * 86_400_000, 'in weeks, not hours');
  });
});
