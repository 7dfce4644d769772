// `rawp attach`'s terminal master speaks the terminal's language in its own words too (decision
// 601): attached to a real host over a real WebSocket (the remote tests' rig), with language 'ko'
// its notices — attached, a question waiting, a typed line that answers nothing, the end — and the
// transcript's turn end are Korean; with no language they are English exactly as before.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { TerminalMaster } from '../../../src/cli/attach/terminalMaster';
import type { HostLanguage } from '../../../src/protocol/hostPhrases';
import { rig, waitFor, type Rig } from './harness';

describe('remote/terminal master: its own words in the terminal\'s language (decision 601)', () => {
  let r: Rig | undefined;
  let master: TerminalMaster | undefined;
  afterEach(async () => {
    master?.stop();
    master = undefined;
    await r?.close();
    r = undefined;
  });

  /**
   * A host whose agent asks a y/n question and then answers; `rawp attach`'s master on a pipe.
   * Types a prompt, a line that is no answer, then `y`; leaves once the turn has ended. Waits on
   * what does not depend on the language (the session id, the question's line, `]` closing a notice).
   */
  async function askAndAnswer(language?: HostLanguage): Promise<{ out: string; code: number; session: string }> {
    r = await rig({ adapter: { turns: [{ steps: [{ kind: 'ask', request: { interaction_type: 'YN', question_text: 'Q-7?' } }, { kind: 'text', chunks: ['A-42'] }] }] } });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const session = r.session.session_id;
    const m = new TerminalMaster({ url: r.server.attachUrl(session), token: r.token, session_id: session, stdin, stdout, ...(language ? { language } : {}) });
    master = m;
    m.start();
    await waitFor(() => out.includes(session), 'attached');
    stdin.write('go\n');
    const noticesAfterQuestion = () => (out.includes('(YN)\n') ? (out.slice(out.indexOf('(YN)\n')).match(/\]\n/g) ?? []).length : 0);
    await waitFor(() => noticesAfterQuestion() === 1, 'the question and its notice');
    stdin.write('maybe\n');
    await waitFor(() => noticesAfterQuestion() === 2, 'the hint for a line that is no answer');
    stdin.write('y\n');
    await waitFor(() => out.includes('A-42') && out.includes('end_turn'), 'the turn ends');
    m.stop();
    const code = await m.done;
    return { out, code, session };
  }

  it('with language ko the attached line, the question-waiting line, the answer hint, the turn end and the goodbye are Korean, and no English notice is left', async () => {
    const { out, code, session } = await askAndAnswer('ko');
    assert.equal(code, 0);
    assert.ok(out.includes(`[세션 ${session}에 연결했습니다. 프롬프트를 입력하세요. Ctrl-C를 누르면 턴이 취소됩니다]\n`), out);
    assert.ok(out.includes('[답을 기다리는 질문이 있습니다: y 또는 n을 입력하세요]\n'), out);
    assert.ok(out.includes('[y 또는 n으로 답하세요]\n'), out);
    assert.match(out, /\n {2}✓ yes\n/, 'the answer is the value sent');
    assert.match(out, /\n— 턴 \d+ 종료: end_turn\n/);
    assert.match(out, /\[연결이 끝났습니다: 직접 닫았습니다\]\n$/);
    assert.doesNotMatch(out, /attached to session|question waiting|answer y or n|ended: |disconnected: /);
  });

  it('with no language the same session reads in English exactly as before', async () => {
    const { out, code, session } = await askAndAnswer();
    assert.equal(code, 0);
    assert.ok(out.includes(`[attached to session ${session}; type a prompt, Ctrl-C cancels a turn]\n`), out);
    assert.ok(out.includes('[question waiting: type y or n]\n'), out);
    assert.ok(out.includes('[answer y or n]\n'), out);
    assert.match(out, /\n— turn \d+ ended: end_turn\n/);
    assert.match(out, /\[disconnected: closed\]\n$/);
    assert.doesNotMatch(out, /[가-힣]+니다/, 'none of attach\'s Korean sentences');
  });

  it('a refused token ends the attach with the server\'s answer, worded in the terminal\'s language from the client\'s cause (exit 1)', async () => {
    r = await rig({ adapter: { turns: [] } });
    for (const [language, expected] of [
      [undefined, /\[disconnected: the server answered 401 Unauthorized\]\n$/],
      ['ko', /\[연결이 끝났습니다: 서버의 응답: 401 Unauthorized\]\n$/],
    ] as const) {
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      const session = r.session.session_id;
      const m: TerminalMaster = new TerminalMaster({ url: r.server.attachUrl(session), token: 'not-the-token-not-the-token-00', session_id: session, stdin: new PassThrough(), stdout, ...(language ? { language } : {}) });
      master = m;
      m.start();
      assert.equal(await m.done, 1);
      assert.match(out, expected);
    }
  });
});

