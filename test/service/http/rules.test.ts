// GET /v1/rules and GET /v1/rules/{rule_id}: every rule and its documentation, public, from the
// same data as the checked-in pages under docs/rules/ (every answer checked against the OpenAPI document).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleDetail, RuleSummary } from '../../../service/api/rule-schemas.ts';
import { RULES } from '../../../service/engine/index.ts';
import { startTestService, type TestService } from '../../support/test-service.ts';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as object) });

describe('GET /v1/rules', () => {
  it('lists every rule of the engine, sorted by id, without a token', async () => {
    const response = await t.api('GET', '/v1/rules', { token: null });
    expect(response.status).toBe(200);
    const { rules } = (await response.json()) as { rules: RuleSummary[] };
    expect(rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id).sort((a, b) => a.localeCompare(b)));
    const debuggerRule = rules.find((r) => r.id === 'no-debugger')!;
    expect(Object.keys(debuggerRule).sort()).toEqual(['id', 'severity', 'summary']);
    expect(debuggerRule.severity).toBe(RULES.find((r) => r.id === 'no-debugger')!.severity);
  });

  it('answers with a token too (the clients send theirs)', async () => {
    expect((await t.api('GET', '/v1/rules')).status).toBe(200);
  });
});

describe('GET /v1/rules/{rule_id}', () => {
  it("a rule's documentation: the same page as docs/rules/<id>.md, its examples and its suppression comment", async () => {
    const response = await t.api('GET', '/v1/rules/no-debugger', { token: null });
    expect(response.status).toBe(200);
    const rule = (await response.json()) as RuleDetail;
    expect(rule.markdown).toBe(await readFile('docs/rules/no-debugger.md', 'utf8'));
    expect(rule.suppress).toBe('// diff-review-ignore no-debugger (why this one is fine)');
    expect(rule.reported?.lines.join('\n')).toMatch(/debugger/);
    expect(rule.not_reported).toBeDefined();
    expect(rule.why).toEqual(expect.any(String));
    expect(rule.help).toBe(RULES.find((r) => r.id === 'no-debugger')!.help);
  });

  it('the truncation notice has no examples: they are left out, not empty', async () => {
    const rule = (await (await t.api('GET', '/v1/rules/review-truncated', { token: null })).json()) as RuleDetail;
    expect(rule).not.toHaveProperty('reported');
    expect(rule).not.toHaveProperty('not_reported');
  });

  it("an unknown id → 404 not_found naming it; past 100 characters (the router's limit) 404 as well", async () => {
    const unknown = await errorOf(await t.api('GET', '/v1/rules/no-such-rule', { token: null }));
    expect(unknown).toMatchObject({
      status: 404,
      error: 'not_found',
      message: expect.stringContaining('"no-such-rule"'),
    });
    const atLimit = await errorOf(await t.api('GET', `/v1/rules/${'a'.repeat(100)}`, { token: null }));
    expect(atLimit).toMatchObject({ status: 404, error: 'not_found', message: expect.stringContaining('"aaaa') });
    const past = await errorOf(await t.api('GET', `/v1/rules/${'a'.repeat(101)}`, { token: null }));
    expect(past).toMatchObject({ status: 404, error: 'not_found' });
  });

  it('is in the OpenAPI document, under the tag rules', async () => {
    const doc = (await (await t.api('GET', '/v1/openapi.json', { token: null })).json()) as {
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
    };
    expect(doc.paths['/v1/rules']?.get?.operationId).toBe('listRules');
    expect(doc.paths['/v1/rules/{rule_id}']?.get).toMatchObject({ operationId: 'getRule', tags: ['rules'] });
  });
});
