// `diff-review rules [id]`: the built CLI in a child process. The list and each page come from the
// same data as docs/rules/ and GET /v1/rules; an unknown id is a usage error (2) with suggestions.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../../service/engine/index.ts';
import { BUILT_CLI, buildCli, runCli } from './review-cli.ts';

beforeAll(() => {
  buildCli();
});
const rules = (...args: string[]) => runCli(['rules', ...args], { cwd: tmpdir() });
const sortedIds = RULES.map((r) => r.id).sort((a, b) => a.localeCompare(b));

describe('diff-review rules', () => {
  it('lists every rule: id, severity, summary, one per line, sorted; then how to see one', async () => {
    const run = await rules();
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, RULES.length).map((line) => line.split(/\s+/)[0])).toEqual(sortedIds);
    const debuggerLine = lines.find((line) => line.startsWith('no-debugger '))!;
    expect(debuggerLine).toMatch(/^no-debugger\s+warning\s+A statement that stops in a debugger/);
    expect(lines.at(-1)).toBe(`${RULES.length} rules. \`diff-review rules <rule-id>\` shows one rule's documentation.`);
  });

  it('--format json: the shape of GET /v1/rules', async () => {
    const run = await rules('--format', 'json');
    const parsed = JSON.parse(run.stdout) as { rules: { id: string; severity: string; summary: string }[] };
    expect(parsed.rules.map((r) => r.id)).toEqual(sortedIds);
    expect(Object.keys(parsed.rules[0]!).sort()).toEqual(['id', 'severity', 'summary']);
  });

  it("<id>: the rule's page, the same as docs/rules/<id>.md; --format json: the shape of GET /v1/rules/{id}", async () => {
    const page = await rules('no-debugger');
    expect(page.code).toBe(0);
    expect(page.stdout).toBe(await readFile('docs/rules/no-debugger.md', 'utf8'));
    const json = JSON.parse((await rules('secret', '--format', 'json')).stdout);
    expect(json).toMatchObject({
      id: 'secret',
      severity: 'error',
      suppress: expect.stringContaining('diff-review-ignore secret'),
    });
    expect(json.markdown).toBe(await readFile('docs/rules/secret.md', 'utf8'));
  });

  it.each([
    ['debuger', 'no-debugger'],
    ['secrets', 'secret'],
    ['tls', 'no-tls-verify-off'],
  ])('an unknown id (%s): exit 2, suggests %s, prints nothing on stdout', async (asked, suggested) => {
    const run = await rules(asked);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`no rule "${asked}". Did you mean ${suggested}`);
  });

  it('an unknown id with nothing close: exit 2, pointing at the list; a bad --format: exit 2', async () => {
    const run = await rules('xyzzy');
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toBe('diff-review: no rule "xyzzy". `diff-review rules` lists them all.\n');
    expect((await rules('--format', 'yaml')).code).toBe(2);
  });

  it('piped into a reader that stops early (| head -1): exits 0 without an EPIPE trace', async () => {
    const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BUILT_CLI}" rules | head -1`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
