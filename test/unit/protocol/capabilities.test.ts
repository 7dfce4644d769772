// §12.2.1 capability filtering: a frame that needs a feature goes only to a peer that announced
// it; an unannounced feature counts as false (§14.2.3).
import { strict as assert } from 'node:assert';
import { FRAME_TYPE_NAMES, maySend, requiredFeature, supports, type FeatureSet } from '../../../src/protocol';

describe('protocol/capabilities: maySend, supports', () => {
  const cases: [string, keyof FeatureSet][] = [
    ['agent.thinking.delta', 'thinking_stream'],
    ['agent.thinking.done', 'thinking_stream'],
    ['tool.invoke.stream', 'tool_streaming'],
    ['agent.subagent.started', 'subagent'],
    ['agent.subagent.ended', 'subagent'],
    ['control.file.search', 'file_search_fuzzy'],
    ['control.file.search.cancel', 'file_search_fuzzy'],
    ['control.mode.switch', 'plan_mode'],
  ];

  for (const [type, feature] of cases) {
    it(`§12.2.1 ${type} needs the peer's ${feature}: false or unannounced forbids it, true allows it`, () => {
      for (const peer of [undefined, {}, { [feature]: false }] as FeatureSet[]) {
        const d = maySend(type, peer);
        assert.equal(d.allowed, false, JSON.stringify(peer));
        assert.equal(d.feature, feature);
        assert.match(d.reason!, new RegExp(`${feature}.*${type.replace(/\./g, '\\.')}.*§12\\.2\\.1`));
      }
      assert.deepEqual(maySend(type, { [feature]: true }), { allowed: true, feature });
      assert.equal(requiredFeature(type), feature);
    });
  }

  it('§12.2.1 thinking_stream: false at the master means no agent.thinking.delta (the spec example)', () => {
    assert.equal(maySend('agent.thinking.delta', { thinking_stream: false, tool_streaming: true }).allowed, false);
  });

  it('§12.2.1 file_search_fuzzy: the master sends control.file.search only to a client that announced it', () => {
    assert.equal(maySend('control.file.search', { file_reference: true }).allowed, false);
    assert.equal(maySend('control.file.search', { file_search_fuzzy: true }).allowed, true);
  });

  it('§6.3.2 plan_mode: control.mode.switch must not go to a client without plan_mode', () => {
    assert.equal(maySend('control.mode.switch', { context_compaction: true }).allowed, false);
    assert.equal(maySend('control.mode.switch', { plan_mode: true }).allowed, true);
  });

  it('§6.3.1 control.session.compact is not filtered: a client without context_compaction answers COMPACTION_NOT_SUPPORTED', () => {
    assert.deepEqual(maySend('control.session.compact', {}), { allowed: true });
  });

  it('§12.2.1 frames that need no feature always pass, even to a peer that announced nothing', () => {
    const gated = new Set(cases.map(([t]) => t));
    for (const type of FRAME_TYPE_NAMES.filter((t) => !gated.has(t))) {
      assert.deepEqual(maySend(type, undefined), { allowed: true }, type);
      assert.equal(requiredFeature(type), undefined);
    }
    assert.deepEqual(maySend('x-acme.custom.event', undefined), { allowed: true });
  });

  it('§12.2.1 supports() is true only for an announced true', () => {
    assert.equal(supports(undefined, 'subagent'), false);
    assert.equal(supports({}, 'subagent'), false);
    assert.equal(supports({ subagent: false }, 'subagent'), false);
    assert.equal(supports({ subagent: true }, 'subagent'), true);
  });
});
