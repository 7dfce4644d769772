// The rules of a space in the @ query (decision 634), apart from the browser: which listed name
// holds a spaced query, when a space is kept for an answer still to come, and what that answer says.
import { strict as assert } from 'node:assert';
import { spacedNameOn, spaceVerdict, undecidedFrom } from '../../../webview-ui/src/view/spacedQuery';

describe('the @ query across a space (decision 634)', () => {
  const listed = ['docs/my notes/meeting notes final.md', 'src/meeting.ts', 'docs/한국어/회의록 2026-11.txt'];

  it('§16.1.1 a listed name holds the spaced text (any case, NFD or NFC, a no-break space as a space); the rest of a sentence does not', () => {
    const holds = spacedNameOn(listed);
    assert.equal(holds('Meeting Notes'), true);
    assert.equal(holds('meeting\u00a0notes f'), true);
    assert.equal(holds('회의록 2026'.normalize('NFD')), true);
    assert.equal(holds('meeting and fix it'), false);
  });

  it('security: the text before the first space naming a listed file whole ends the query, even when a planted name holds the sentence', () => {
    const holds = spacedNameOn(['package.json', 'docs/package.json and fix the failing tests.md']);
    assert.equal(holds('package.json and fix'), false);
  });

  it('§16.1.1 a space is kept for now while no suggestion came yet, or while the list on screen is cut (from that list\'s query on); a whole list decides at once', () => {
    assert.equal(undecidedFrom('notes', undefined), 'notes', 'no answer yet');
    assert.equal(undecidedFrom('notes f', { query: 'notes', truncated: true }), 'notes', 'a cut list: a name it does not show may hold the space');
    assert.equal(undecidedFrom('notes f', { query: 'notes', truncated: false }), undefined, 'every match is listed');
    const kept = spacedNameOn(['src/notes1/notes_1.ts'], undecidedFrom('notes f', { query: 'notes', truncated: true }));
    assert.equal(kept('notes f'), true);
    assert.equal(kept('note f'), false, 'only what goes on from the list\'s query');
  });

  it('§16.1.1 the answer judges: a name holds it (goes on), none of a whole list does (ends), and a cut list waits for what is typed next unless a key waits', () => {
    const crowded = Array.from({ length: 20 }, (_, i) => `src/notes${i}/notes_${i}.ts`);
    assert.equal(spaceVerdict('notes', crowded, true, false), 'goes on', 'no space');
    assert.equal(spaceVerdict('meeting notes', listed, false, false), 'goes on');
    assert.equal(spaceVerdict('notes ', crowded, true, false), 'waits', 'the list from before the space tells nothing');
    assert.equal(spaceVerdict('notes\u00a0', crowded, true, false), 'waits');
    assert.equal(spaceVerdict('notes ', crowded, true, true), 'ends', 'Enter waits for this answer: it decides');
    assert.equal(spaceVerdict('notes ', crowded, false, false), 'ends', 'a whole list decides');
    assert.equal(spaceVerdict('notes f', crowded, true, false), 'waits', 'a cut list never says no name holds it');
    assert.equal(spaceVerdict('notes and fix it', [], false, false), 'ends', 'the sentence matches no name: the reference ends at the space');
  });
});
