// Decision 676: a question's options that say no carry no risk badge — risk is what allowing does.
import { strict as assert } from 'node:assert';
import { declines, questionRisk, riskOf, type Option } from '../../../webview-ui/src/view/optionRisk';

const o = (value: string, label: string, risk_level?: Option['risk_level']): Option => ({ value, label, ...(risk_level ? { risk_level } : {}) });

describe('webview: risk badges of a question\'s options (decision 676, §4.3.1)', () => {
  it('decision 676 an option that says no — ours, Claude Code\'s, ACP\'s, a plan\'s — has no risk, whatever risk_level it came with', () => {
    for (const no of [o('reject', 'Reject', 'safe'), o('reject_always', 'Always reject', 'safe'), o('deny', 'Deny', 'safe'), o('no', 'Keep planning', 'safe'), o('reject-once', 'Reject', 'safe'), o('opt-3', "Don't allow", 'safe'), o('x', 'No, and tell Claude what to do differently', 'safe')]) {
      assert.equal(declines(no), true, no.value);
      assert.equal(riskOf(no), undefined, no.value);
    }
  });

  it('decision 676 the allow options keep theirs, and the question\'s badge is the highest of them', () => {
    for (const yes of [o('allow_once', 'Allow once', 'moderate'), o('allow_always', 'Always allow', 'dangerous'), o('yes', 'Approve', 'moderate'), o('main', 'main', 'safe'), o('notify', 'Notify me', 'safe'), o('normal', 'Normal', 'safe')]) {
      assert.equal(declines(yes), false, yes.value);
      assert.equal(riskOf(yes), yes.risk_level, yes.value);
    }
    assert.equal(questionRisk([o('allow_once', 'Allow once', 'moderate'), o('reject', 'Reject', 'dangerous')]), 'moderate', 'a "no" marked dangerous raises nothing');
    assert.equal(questionRisk([o('allow_once', 'Allow once', 'safe'), o('reject', 'Reject', 'safe')]), undefined);
  });
});
