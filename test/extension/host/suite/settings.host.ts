/// <reference types="mocha" />
// The service URL setting: found where users look, checked as it is entered, and a wrong one
// explained with a way to the exact setting.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import {
  clearNotifications,
  config,
  EXTENSION_ID,
  pressNotificationButtonUntil,
  revertAndCloseAll,
  review,
  setSetting,
  shared,
  tabOpen,
} from './host-helpers.ts';

const TOKEN = `drv_${'u'.repeat(38)}`;

/** A web server that is not Diff Review: 405 with an HTML page to anything. */
async function startOtherServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(405, { 'content-type': 'text/html' });
    response.end('<html><body>Method Not Allowed</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

suite('The service URL setting', () => {
  teardown(async () => {
    await vscode.commands.executeCommand('diffReview.signOut');
    await setSetting('serviceUrl', undefined);
  });

  test('it is a user setting, shown in remote windows too, and checked as it is entered', () => {
    const setting =
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.configuration[0].properties[
        'diffReview.serviceUrl'
      ];
    // "machine" settings are left out of the User tab in remote windows (SSH, WSL, code-server).
    assert.equal(setting.scope, 'application');
    const pattern = new RegExp(setting.pattern);
    for (const good of ['', 'http://127.0.0.1:7411', 'https://review.example.com/diff-review'])
      assert.ok(pattern.test(good), good);
    for (const bad of ['127.0.0.1:7411', 'ftp://host', 'http://', 'http://a b']) assert.ok(!pattern.test(bad), bad);
    assert.match(setting.patternErrorMessage, /http:\/\/127\.0\.0\.1:7411/);
  });

  test('a server that is not Diff Review: said so, with Open Settings leading to the setting', async () => {
    const other = await startOtherServer();
    try {
      await setSetting('serviceUrl', other.url);
      await vscode.commands.executeCommand('diffReview.setToken', TOKEN);
      await revertAndCloseAll();
      await clearNotifications();
      const result = await review();
      assert.equal(result.outcome, 'error', JSON.stringify(result));
      assert.equal(result.failure?.kind, 'not_diff_review', JSON.stringify(result.failure));
      // Its first button opens the Settings editor.
      await pressNotificationButtonUntil('the Settings editor', () => tabOpen(/^Settings$/));
      assert.ok(
        result.failure?.message.includes(`${other.url} does not answer like a Diff Review service (405`),
        result.failure?.message,
      );
      assert.deepEqual(result.failure?.actions, ['Open Settings', 'Show Log']);
      assert.equal(result.failure?.setting, 'diffReview.serviceUrl');
    } finally {
      await other.close();
    }
  });

  test('a URL without a scheme: a clear message with an example on our port; no token is stored for it', async () => {
    await setSetting('serviceUrl', '127.0.0.1:7411');
    assert.equal(config().get('serviceUrl'), '127.0.0.1:7411');
    const stored = await vscode.commands.executeCommand<boolean>('diffReview.setToken', TOKEN);
    assert.equal(stored, false, 'no token stored for an invalid URL');
    const result = await review();
    assert.equal(result.outcome, 'error', JSON.stringify(result));
    assert.equal(result.failure?.kind, 'invalid_service_url', JSON.stringify(result.failure));
    assert.match(
      result.failure?.message ?? '',
      /"Diff Review: Service URL" is not a URL: 127\.0\.0\.1:7411\. Write it with its scheme, such as http:\/\/127\.0\.0\.1:7411\./,
    );
    assert.deepEqual(result.failure?.actions, ['Open Settings']);
    assert.equal(result.failure?.setting, 'diffReview.serviceUrl');
  });

  test("the bundled service's port is not auto-forwarded in remote windows", () => {
    assert.ok(shared.bundledUrl, 'an earlier review started the bundled service');
    const port = Number(new URL(shared.bundledUrl).port);
    const attributes =
      vscode.workspace.getConfiguration('remote').get<Record<string, { onAutoForward?: string }>>('portsAttributes') ??
      {};
    const covering = Object.entries(attributes).filter(([key]) => {
      const range = /^(\d+)(?:-(\d+))?$/.exec(key);
      return range !== null && Number(range[1]) <= port && port <= Number(range[2] ?? range[1]);
    });
    assert.deepEqual(
      covering.map(([, value]) => value.onAutoForward),
      ['ignore'],
      `port ${port}; remote.portsAttributes: ${JSON.stringify(attributes)}`,
    );
    assert.ok(attributes['443'], "VS Code's own defaults are kept beside ours");
  });
});
