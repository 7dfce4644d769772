// What the chat's live regions say (decision 390): a completed answer once (never a token), a new
// permission request at once and assertively, a turn's end; a session's history stays quiet except
// for a question still waiting. In Node, over the real transcript reducer.
import { strict as assert } from 'node:assert';
import { applyFrame, createTranscript, type Transcript } from '../../../src/protocol/transcript';
import type { Frame } from '../../../src/protocol/frameTypes';
import { Announcer, MAX_SPOKEN_CHARS, noticeAnnouncements, spokenMarkdown } from '../../../webview-ui/src/state/announcements';
import { setLocale } from '../../../webview-ui/src/i18n';
import { GATE_OPTIONS, SESSION, TURN, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T = { turn_id: TURN };

function apply(t: Transcript, frames: Frame[]): Transcript {
  for (const f of frames) applyFrame(t, f);
  return t;
}

describe('webview live regions: what is announced (issue 15 "Accessible", decision 390)', () => {
  it('§4.1 a streamed answer is announced once, when agent.text.done closes it, not per delta', () => {
    const b = streamBuilder(SESSION);
    const t = createTranscript({ sessionId: SESSION });
    const a = new Announcer();
    assert.deepEqual(a.next(apply(t, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)])), []);
    for (const word of ['The ', 'tests ', 'pass.']) assert.deepEqual(a.next(apply(t, [b.make('agent.text.delta', { content_index: 0, text: word }, T)])), [], `no announcement for "${word}"`);
    assert.deepEqual(a.next(apply(t, [b.make('agent.text.done', { content_index: 0 }, T)])), [{ politeness: 'polite', text: 'Agent: The tests pass.' }]);
    assert.deepEqual(a.next(t), [], 'not twice');
    const end = a.next(apply(t, [b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn' }, T)]));
    assert.deepEqual(end, [{ politeness: 'polite', text: 'The agent finished.' }]);
  });

  it('§4.3 a new permission request is announced assertively with its question; a cancelled turn says so', () => {
    const b = streamBuilder(SESSION);
    const t = createTranscript({ sessionId: SESSION });
    const a = new Announcer();
    a.next(apply(t, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)]));
    const ask = a.next(apply(t, [b.make('agent.interaction.request', { interaction_id: 'i1', interaction_type: 'PERMISSION', question_text: 'Allow Write notes.md?', timeout_sec: 60, options: GATE_OPTIONS, default_value: 'reject' }, T)]));
    assert.equal(ask.length, 1);
    assert.equal(ask[0].politeness, 'assertive');
    // The question keeps its own end mark: "notes.md? Its …", never "notes.md?. Its …".
    assert.equal(ask[0].text, 'Permission needed: Allow Write notes.md? Its Allow and Reject buttons are in the conversation.');
    const end = a.next(apply(t, [b.make('session.turn.end', { turn_id: TURN, stop_reason: 'cancelled' }, T)]));
    assert.deepEqual(end, [{ politeness: 'polite', text: 'Turn ended: Stopped by you.' }]);
  });

  it('§4.3 a permission question without an end mark is read as a sentence: one full stop is added', () => {
    const b = streamBuilder(SESSION);
    const t = createTranscript({ sessionId: SESSION });
    const a = new Announcer();
    a.next(apply(t, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)]));
    const ask = a.next(apply(t, [b.make('agent.interaction.request', { interaction_id: 'i1', interaction_type: 'PERMISSION', question_text: 'Run npm test', timeout_sec: 60, options: GATE_OPTIONS, default_value: 'reject' }, T)]));
    assert.deepEqual(ask, [{ politeness: 'assertive', text: 'Permission needed: Run npm test. Its Allow and Reject buttons are in the conversation.' }]);
  });

  it('§4.3 in Korean the screen reader hears the permission question the card shows (in Korean), not the broker’s English', () => {
    setLocale('ko');
    try {
      const b = streamBuilder(SESSION);
      const t = createTranscript({ sessionId: SESSION });
      const a = new Announcer();
      a.next(apply(t, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)]));
      const ask = a.next(apply(t, [b.make('agent.interaction.request', { interaction_id: 'i1', interaction_type: 'PERMISSION', question_text: 'Allow Edit src/greeting.ts?', timeout_sec: 60, options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: 'Edit', affected_paths: ['src/greeting.ts'] } }, T)]));
      assert.deepEqual(ask, [{ politeness: 'assertive', text: '권한이 필요합니다: Edit src/greeting.ts을(를) 허용할까요? 허용 및 거부 버튼은 대화에 있습니다.' }]);
    } finally {
      setLocale('en');
    }
  });

  it('§7.1 history is not read out on attach, except a question still pending; a new session starts afresh', () => {
    const b = streamBuilder(SESSION);
    const history = [
      clientCaps(b),
      b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
      b.make('agent.text.delta', { content_index: 0, text: 'Old answer' }, T),
      b.make('agent.text.done', { content_index: 0 }, T),
      b.make('agent.interaction.request', { interaction_id: 'i1', interaction_type: 'YN', question_text: 'Carry on?', timeout_sec: 0 }, T),
    ];
    const a = new Announcer();
    const first = a.next(apply(createTranscript({ sessionId: SESSION }), history));
    assert.deepEqual(first, [{ politeness: 'assertive', text: 'The agent asks: Carry on?' }]);
    // A reload is a new transcript object: its history is quiet again (the pending question is told again).
    const again = a.next(apply(createTranscript({ sessionId: SESSION }), history));
    assert.deepEqual(again.map((x) => x.politeness), ['assertive']);
  });

  it('a long answer is cut to what can be listened to; code blocks and file tokens are read as words', () => {
    const b = streamBuilder(SESSION);
    const t = createTranscript({ sessionId: SESSION });
    const a = new Announcer();
    a.next(apply(t, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)]));
    const text = 'See <@file:ref_1|src/a.ts>:\n```ts\nconst x = 1;\n```\n' + 'word '.repeat(200);
    const [said] = a.next(apply(t, [b.make('agent.text.delta', { content_index: 0, text }, T), b.make('agent.text.done', { content_index: 0 }, T)]));
    assert.ok(said.text.length < MAX_SPOKEN_CHARS + 60, `${said.text.length} chars`);
    assert.match(said.text, /^Agent: See src\/a\.ts: \(code\) word word/);
    assert.match(said.text, /continued in the conversation\)$/);
    assert.doesNotMatch(said.text, /const x/);
  });

  it('an answer is read with its error codes, parameters and file names whole: only backticks, emphasis stars and a line-opening # or > are left out', () => {
    const b = streamBuilder(SESSION);
    const t = createTranscript({ sessionId: SESSION });
    const a = new Announcer();
    a.next(apply(t, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)]));
    const text = '## Result\n**FS_EDIT_NOT_FOUND**: `old_string` was not found in *my_file.py*.\n> Quoted: a*b*c stays';
    const [said] = a.next(apply(t, [b.make('agent.text.delta', { content_index: 0, text }, T), b.make('agent.text.done', { content_index: 0 }, T)]));
    assert.equal(said.text, 'Agent: Result FS_EDIT_NOT_FOUND: old_string was not found in my_file.py. Quoted: a*b*c stays');
  });

  it('markdown markup is dropped and the words around it are kept: snake_case, file names, stars inside words, globs, a # inside a line', () => {
    assert.equal(spokenMarkdown('FS_EDIT_NOT_FOUND'), 'FS_EDIT_NOT_FOUND');
    assert.equal(spokenMarkdown('old_string'), 'old_string');
    assert.equal(spokenMarkdown('my_file.py'), 'my_file.py');
    assert.equal(spokenMarkdown('`my_file.py` and ``a_b``'), 'my_file.py and a_b');
    assert.equal(spokenMarkdown('***both*** and *one with **two** inside*'), 'both and one with two inside');
    assert.equal(spokenMarkdown('2 * 3 = 6, a*b, ls *.ts'), '2 * 3 = 6, a*b, ls *.ts');
    assert.equal(spokenMarkdown('# Title\n  > > deep quote\nissue #42 > none'), 'Title deep quote issue #42 > none');
  });

  it('the banners\' notices go to the polite region once each (a /rename or /help reply, a copy confirmation, a warning); an error is left to its alert', () => {
    const notices = [
      { id: 1, level: 'info' as const, message: 'The session is now called “회의록”.' },
      { id: 2, level: 'info' as const, message: 'Slash commands:\n/help — List the commands\n/rename — Rename this session' },
      { id: 3, level: 'error' as const, message: 'disk full' },
      { id: 4, level: 'warning' as const, message: 'Usage: /rename <new name>', code: 'COMMAND_FAILED' },
    ];
    const first = noticeAnnouncements(notices, 0);
    assert.deepEqual(first.news, [
      { politeness: 'polite', text: 'The session is now called “회의록”.' },
      { politeness: 'polite', text: 'Slash commands: /help — List the commands /rename — Rename this session' },
      { politeness: 'polite', text: 'The command could not be run. Usage: /rename <new name>' },
    ]);
    assert.equal(first.seen, 4);
    assert.deepEqual(noticeAnnouncements(notices, first.seen).news, [], 'not twice');
    assert.deepEqual(noticeAnnouncements([...notices.slice(2), { id: 5, level: 'info', message: 'Attach URL copied (without the token).' }], first.seen).news, [{ politeness: 'polite', text: 'Attach URL copied (without the token).' }]);
  });
});
