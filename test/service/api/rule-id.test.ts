// The rule id every comment's message begins with, read back as the extension, the dashboard and
// a project's rule settings read it.
import { describe, expect, it } from 'vitest';
import { splitRuleId } from '../../../service/api/rule-id.ts';

describe('splitRuleId', () => {
  it('takes the rule id from the message prefix', () => {
    expect(splitRuleId('secret: A secret was added (aws AWSSecretAccessKey); remove it.')).toEqual({
      ruleId: 'secret',
      text: 'A secret was added (aws AWSSecretAccessKey); remove it.',
    });
    expect(splitRuleId('@scope/rule-x: text')).toEqual({ ruleId: '@scope/rule-x', text: 'text' });
    expect(splitRuleId('no-debugger: Remove it.')).toEqual({ ruleId: 'no-debugger', text: 'Remove it.' });
  });

  it('keeps a message without one whole', () => {
    expect(splitRuleId('Just a sentence: with a colon')).toEqual({ text: 'Just a sentence: with a colon' });
    expect(splitRuleId('no prefix here')).toEqual({ text: 'no prefix here' });
  });
});
