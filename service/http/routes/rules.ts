// /v1/rules: every rule of the engine and its documentation, public like the OpenAPI document
// (nothing in it is anyone's data). Built once, when first asked for (the engine's rules are not
// loaded at start): the rules do not change while the service runs.
import type { FastifyInstance } from 'fastify';
import { type RuleDetail, RuleDetail as RuleDetailSchema, RuleIdParams, RuleList } from '../../api/rule-schemas.ts';
import { NotFoundError } from '../../api/errors.ts';

const tags = ['rules'];

export function ruleRoutes(app: FastifyInstance) {
  let details: Promise<Map<string, RuleDetail>> | undefined;
  const all = () =>
    (details ??= import('../../engine/rule-pages.ts').then(
      ({ ruleDetailOf, ruleDocs }) => new Map(ruleDocs().map((doc) => [doc.id, ruleDetailOf(doc)])),
    ));

  app.get('/v1/rules', {
    schema: {
      operationId: 'listRules',
      summary: 'Every rule of the review engine',
      description: 'Public: no token needed. The id, severity and summary of each rule, sorted by id.',
      tags,
      response: { 200: RuleList },
      errorStatuses: [500],
    },
    handler: async () => ({
      rules: [...(await all()).values()]
        .map(({ id, severity, summary }) => ({ id, severity, summary }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    }),
  });

  app.get<{ Params: { rule_id: string } }>('/v1/rules/:rule_id', {
    schema: {
      operationId: 'getRule',
      summary: "A rule's documentation",
      description:
        'Public: no token needed. What the rule finds, why it matters, how to fix and suppress a finding, an example it reports and one it does not, and the whole page as Markdown.',
      tags,
      params: RuleIdParams,
      response: { 200: RuleDetailSchema },
      errorStatuses: [400, 404, 500],
    },
    handler: async (request) => {
      const detail = (await all()).get(request.params.rule_id);
      if (!detail) throw new NotFoundError(`Rule ${JSON.stringify(request.params.rule_id)}`);
      return detail;
    },
  });
}
