// `rawp attach`'s own words in the terminal's language (decision 601): the phrase table is whole in
// Korean, and a transcript rendered in Korean says attach's labels in Korean while what the frames
// carry (the agent's text, stop reasons, statuses) is shown as sent.
import { strict as assert } from 'node:assert';
import { answerFor } from '../../../src/cli/attach/answers';
import { ATTACH_PHRASES_EN, ATTACH_PHRASES_KO, attachPhrase, type AttachPhraseId } from '../../../src/cli/attach/attachPhrases';
import { transferText } from '../../../src/cli/attach/fileTransfers';
import { transcriptText } from '../../../src/cli/attach/render';
import { parseSaveArgs } from '../../../src/cli/attach/saveArgs';
import type { HostLanguage } from '../../../src/protocol/hostPhrases';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import { createTranscript, type Transcript } from '../../../src/protocol/transcript';
import { applyFrame } from '../../../src/protocol/transcript/reduce';
import { SAMPLES } from '../../fixtures/validate/samples';

const S = '11111111-1111-4111-8111-111111111111';
const T = '22222222-2222-4222-8222-222222222222';
const ID1 = '5f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';

const placeholders = (text: string): string[] => (text.match(/\{\d\}/g) ?? []).sort();
const ids = Object.keys(ATTACH_PHRASES_EN) as AttachPhraseId[];

/** Words of three letters or more in `texts` (placeholders aside). */
const wordsOf = (texts: readonly string[]): Set<string> => new Set(texts.flatMap((t) => t.match(/[A-Za-z]{3,}/g) ?? []));

/**
 * A session with one of each of attach's own labels: a history past the host's budget, a prompt
 * with a file, a plan, thinking, a tool whose output is cut, a question that timed out, one a
 * restarted host closed, the turn's
 * end and tokens, a compaction, a shared file and the session's end. The agent speaks Korean here,
 * so any English left in the Korean rendering is attach's own.
 */
function wholeSession(): Transcript {
  const t = createTranscript({ sessionId: S });
  const ctx = { session_id: S, turn_id: T };
  const f = (frame: unknown) => applyFrame(t, frame as Frame);
  f(buildFrame('session.history', { ...SAMPLES['session.history'], buffer_status: { policy_applied: 'RING', truncated: true, lost_frame_count: 3 } }, { session_id: S }));
  f(buildFrame('control.prompt.request', { prompt_text: '표를 보세요', context_files: [{ file_url: `/v1/files/${ID1}`, file_name: 'dot.png', mime_type: 'image/png', intent: 'context' }] }, { session_id: S }));
  f(buildFrame('session.turn.start', { turn_id: T, turn_index: 0 }, ctx));
  f(buildFrame('agent.thinking.delta', { content_index: 0, text: '살펴보는 중' }, ctx));
  f(buildFrame('agent.thinking.done', { content_index: 0 }, ctx));
  f(buildFrame('tool.invoke.request', { invocation_id: 'b1', tool_name: 'Bash', input: { command: 'seq 25' } }, ctx));
  const lines = Array.from({ length: 25 }, (_, i) => String(i + 1)).join('\n');
  f(buildFrame('tool.invoke.result', { invocation_id: 'b1', tool_name: 'Bash', status: 'success', output: lines, output_type: 'text' }, ctx));
  f(buildFrame('agent.interaction.request', { interaction_id: 'i1', interaction_type: 'YN', question_text: '계속할까요?', timeout_sec: 30 }, ctx));
  f(buildFrame('control.interaction.timeout', { interaction_id: 'i1' }, ctx));
  f(buildFrame('agent.interaction.request', { interaction_id: 'i2', interaction_type: 'YN', question_text: '지울까요?', timeout_sec: 30 }, ctx));
  f(buildFrame('control.interaction.timeout', { interaction_id: 'i2' }, { ...ctx, metadata: { synthetic: true } })); // §7.8.2, decision 656
  f(buildFrame('agent.text.delta', { content_index: 1, text: '끝났습니다' }, ctx));
  f(buildFrame('agent.text.done', { content_index: 1, full_text: '끝났습니다' }, ctx));
  f(buildFrame('agent.file.transfer', { transfer_id: ID1, direction: 'download', file_url: `/v1/files/${ID1}`, file_name: 'chart.png', mime_type: 'image/png', size_bytes: 68, context: { workspace_relative_path: 'docs/chart.png' } }, ctx));
  f(buildFrame('session.turn.end', { turn_id: T, stop_reason: 'end_turn' }, ctx));
  f(buildFrame('session.usage', { ...SAMPLES['session.usage'], turn_id: T, token_usage: { input_tokens: 100, output_tokens: 20 } }, ctx));
  f(buildFrame('session.compacted', { ...SAMPLES['session.compacted'], summary: '버그를 고쳤습니다' }, { session_id: S }));
  f(buildFrame('session.deleted', { session_id: S, reason: 'user_request', deleted_by: 'client' }, { session_id: S }));
  return t;
}

const render = (lang?: HostLanguage) => transcriptText(wholeSession(), { httpBase: 'http://127.0.0.1:8123', ...(lang ? { language: lang } : {}) });

describe('cli/attach: its own words in the terminal\'s language (decision 601)', () => {
  it('every phrase has a Korean text, not empty and not the English, with the same placeholders', () => {
    assert.ok(ids.length > 40, 'the table holds attach\'s words');
    assert.deepEqual(Object.keys(ATTACH_PHRASES_KO).sort(), [...ids].sort());
    for (const id of ids) {
      const ko = ATTACH_PHRASES_KO[id];
      assert.ok(ko.trim().length > 0, `${id} has Korean`);
      assert.notEqual(ko, ATTACH_PHRASES_EN[id], `${id} is translated`);
      assert.deepEqual(placeholders(ko), placeholders(ATTACH_PHRASES_EN[id]), `${id} keeps its placeholders`);
    }
    assert.equal(attachPhrase('render.turn_ended', [3, 'end_turn'], 'ko'), '— 턴 3 종료: end_turn');
    assert.equal(attachPhrase('render.turn_ended', [3, 'end_turn']), '— turn 3 ended: end_turn', 'English by default');
  });

  it('a transcript rendered in Korean says the turn\'s end, its tokens and a timed-out question in Korean, with no English word of the table left', () => {
    const ko = render('ko');
    assert.match(ko, /^⚠ 이 세션의 오래된 기록\(약 3개 프레임\)은 호스트가 보관하는 기록 한도를 넘어 표시되지 않습니다\.\n/);
    assert.match(ko, /\n {2}\+ 첨부한 파일: dot\.png \(image\/png\)\n/);
    assert.match(ko, /\n {2}✗ 시간 초과\n/);
    assert.match(ko, /\n— 턴 1 종료: end_turn\n {2}\(토큰 입력 100, 출력 20\)\n/);
    assert.match(ko, /\n {4}… 5줄 더 있습니다\n/);
    assert.match(ko, /\n\(맥락을 요약해 줄였습니다: 버그를 고쳤습니다\)\n/);
    assert.match(ko, /\n⇩ 에이전트가 보낸 파일 1: chart\.png \(image\/png, 68 B\) · 작업 공간 경로: docs\/chart\.png\n/);
    assert.match(ko, /\n■ 세션이 끝났습니다\(user_request, 끝낸 쪽: client\)\n$/);
    assert.match(ko, /\n {2}여기에 사본을 저장하려면 \/save 1 명령을 입력하세요 · 액세스 토큰으로 GET http:\/\/127\.0\.0\.1:8123\/v1\/files\/[0-9a-f-]+\n/);
    // The English words of the table that no Korean phrase keeps (Ctrl, GET, SHA…): none is shown
    // (the host's URLs and a tool call's input aside: their words are the host's and the agent's,
    // shown as sent — Bash's `{"command":…}` is no word of attach's "command file", decision 727).
    const koWords = wordsOf(Object.values(ATTACH_PHRASES_KO));
    const english = [...wordsOf(Object.values(ATTACH_PHRASES_EN))].filter((w) => !koWords.has(w));
    const shown = new Set(ko.replace(/https?:\/\/\S+/g, '').replace(/^⚙ \S+ \{.*\}$/gm, '').match(/[A-Za-z_]+/g) ?? []);
    assert.deepEqual(english.filter((w) => shown.has(w)), [], ko);
  });

  it('the same transcript with no language is English exactly as before', () => {
    const en = render();
    assert.equal(render('en'), en);
    assert.match(en, /^⚠ Part of this session's history \(about 3 frames\) is beyond the history budget the host keeps and is not shown\.\n/);
    assert.match(en, /\n {2}\+ attached: dot\.png \(image\/png\)\n/);
    assert.match(en, /\n\(thinking\) 살펴보는 중\n/);
    assert.match(en, /\n {2}✗ timed out\n/);
    assert.match(en, /\? 지울까요\? \(YN\)\n {2}✗ closed: the editor or server restarted before an answer\n/);
    assert.match(en, /\n— turn 1 ended: end_turn\n {2}\(tokens in 100, out 20\)\n/);
    assert.match(en, /\n {4}… 5 more lines\n/);
    assert.match(en, /\n\(context compacted: 버그를 고쳤습니다\)\n/);
    assert.match(en, /\n⇩ file 1 from the agent: chart\.png \(image\/png, 68 B\) for docs\/chart\.png\n {2}type \/save 1 to keep a copy here · GET http:\/\/127\.0\.0\.1:8123\/v1\/files\/[0-9a-f-]+ with the access token\n/);
    assert.match(en, /\n■ session ended \(user_request, by client\)\n$/);
  });

  it('a typed line that answers nothing, a /save of a file that is not there and a file elsewhere are said in Korean; the English stays as it was', () => {
    const q = { interaction_id: 'i1', interaction_type: 'SELECT' as const, question_text: '어느 쪽?', timeout_sec: 30, options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] };
    assert.deepEqual(answerFor(q, '9', 'ko'), { ok: false, message: '선택지 번호를 고르세요: 1-2' });
    assert.deepEqual(answerFor(q, '9'), { ok: false, message: 'pick an option: 1-2' });
    assert.deepEqual(answerFor({ ...q, interaction_type: 'YN', options: [] }, 'maybe', 'ko'), { ok: false, message: 'y 또는 n으로 답하세요' });
    assert.deepEqual(answerFor({ ...q, interaction_type: 'MULTI_SELECT' }, '1,9', 'ko'), { ok: false, message: '번호로 고르세요. 여러 개는 쉼표로 나눕니다(1-2)' });
    assert.deepEqual(parseSaveArgs('7', 1, '/home/u', 'ko'), { error: '7번 파일은 없습니다. 공유된 파일은 1-1번입니다' });
    assert.deepEqual(parseSaveArgs('7', 1, '/home/u'), { error: 'there is no file 7; files 1-1 were shared' });
    const elsewhere = { transfer_id: ID1, direction: 'upload' as const, file_url: 'https://storage.example/x.bin', file_name: 'x.bin', mime_type: 'application/octet-stream', size_bytes: 12 };
    assert.equal(transferText(elsewhere, 2, 'http://127.0.0.1:8123', '', 'ko'), '⇧ 마스터가 올린 파일 2: x.bin (application/octet-stream, 12 B)\n  위치: https://storage.example/x.bin\n');
    assert.equal(transferText(elsewhere, 2, 'http://127.0.0.1:8123', ''), '⇧ file 2 uploaded by a master: x.bin (application/octet-stream, 12 B)\n  at https://storage.example/x.bin\n');
  });
});
