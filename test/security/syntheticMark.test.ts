// §7.8.1: `metadata.synthetic` marks what the host made up for a peer that is gone — a restart
// closing a question it left open is read as "closed by the restart, nothing was allowed"
// (decision 656). A remote master timing a question out could add the mark and have every view,
// `rawp attach` and the journal say a restart closed it. Against a real `rawp serve`: the host takes
// the mark off a master's frame; the question reads as timed out everywhere, replays included.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../src/protocol/build';
import { waitFor } from '../unit/remote/harness';
import { historyFrom, journalLines, stopAll, twoMastersAsked } from './serveProcess';

describe('security/syntheticMark: a master cannot pass its own frame off as the host\'s restart (decision 656)', function () {
  this.timeout(120_000);
  afterEach(() => stopAll());

  it('§7.8.1-3 a master\'s control.interaction.timeout marked synthetic loses the mark: the others, a reattach and the journal read a timeout, not a restart', async () => {
    const { s, a, b, ask } = await twoMastersAsked();
    const forged = buildFrame('control.interaction.timeout', { interaction_id: ask.payload.interaction_id }, { session_id: s.session_id, turn_id: ask.turn_id, metadata: { synthetic: true } });
    a.client.sendRaw(JSON.stringify(forged));
    await waitFor(() => b.frames.some((f) => f.message_id === forged.message_id), 'B gets the timeout (§2.4)');
    const relayed = b.frames.find((f) => f.message_id === forged.message_id)!;
    assert.equal(relayed.metadata?.synthetic, undefined, 'relayed without the mark');
    const card = b.transcript.idx.interactions.get(ask.payload.interaction_id)!;
    assert.deepEqual([card.status, card.retiredBy], ['timed_out', undefined], 'B reads a timeout');
    await waitFor(() => b.transcript.turns[0]?.usage !== undefined, 'the turn ends (the call was not allowed)');
    const h = await historyFrom(s, ask.message_id);
    const kept = h.frames.find((f) => f.message_id === forged.message_id);
    assert.ok(kept, 'kept in history');
    assert.equal((kept.metadata as { synthetic?: boolean } | undefined)?.synthetic, undefined);
    const line = journalLines(s.dir).find((l) => l.includes(forged.message_id));
    assert.ok(line, 'journaled');
    assert.doesNotMatch(line, /"synthetic"/);
    assert.ok(s.alive());
  });
});
