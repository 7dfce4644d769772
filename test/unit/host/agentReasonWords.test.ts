// Decision 609: why an agent cannot run, in the reader's language. The host detects the missing
// agents as it does on a fresh machine (an empty PATH), gives their reasons in English with their
// phrases beside, and a browser master gets both from GET /v1/agents over a real socket: its view
// says them in Korean, and in English word for word as the host wrote them.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { detectAgents } from '../../../src/agents/selection';
import { unavailableOf, type AgentChoice } from '../../../src/host/agentChoice';
import { HostSharing } from '../../../src/host/sharing';
import { generateToken } from '../../../src/remote/auth';
import { setLocale } from '../../../webview-ui/src/i18n';
import { unavailableReason } from '../../../webview-ui/src/i18n/hostWords';
import { ChatStore } from '../../../webview-ui/src/state/store';
import { WebSocketTransport, type WebSocketLike } from '../../../webview-ui/src/transport/websocket';
import { waitFor } from '../remote/harness';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { agentReasonIn } from '../../../src/protocol/hostPhrases';
import { controllerFor, harness, viewRecorder, type Harness } from './harness';

describe('host: an unavailable agent\'s reason reaches a browser master in its own language (decision 609)', () => {
  let h: Harness;
  let sharing: HostSharing | undefined;
  let transport: WebSocketTransport | undefined;
  beforeEach(() => {
    h = harness();
  });
  afterEach(async () => {
    setLocale('en');
    transport?.close();
    await sharing?.close();
    sharing = undefined;
    await h.cleanup();
  });

  it('GET /v1/agents carries each detected reason with its phrases; the browser view says them in Korean and in the host\'s exact English', async () => {
    const detected = await detectAgents({ env: { PATH: '' }, binDirs: [], openai: { baseUrl: 'https://api.example.com/v1', model: 'm' } });
    const missing = detected.filter((c) => c.status === 'unavailable');
    assert.ok(missing.length >= 4, `claude-code, codex, the ACP presets and openai are missing here (${missing.map((c) => c.id).join(', ')})`);
    const agents: AgentChoice[] = missing.map((c) => ({ id: c.id, name: c.displayName, available: false, ...unavailableOf(undefined, c), rank: 0, create: () => { throw new Error('not runnable'); } }));
    const host = h.makeHost({ agents });
    const token = generateToken();
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
    const server = await sharing.start();
    const id = await host.create({ agent: 'builtin' });
    await sharing.share(id);

    transport = new WebSocketTransport({ baseUrl: server.url, token, sessionId: id, backoffMs: [10], createSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike, fetchFn: fetch });
    const store = new ChatStore(transport, (fn) => setImmediate(fn));
    store.start();
    await waitFor(() => missing.every((c) => store.agents.some((a) => a.id === c.id)), 'the picker lists the missing agents');

    for (const c of missing) {
      const shown = store.agents.find((a) => a.id === c.id)!;
      assert.ok(shown.unavailable_words && shown.unavailable_words.length > 0, `${c.id} came with its phrases`);
      setLocale('en');
      assert.equal(unavailableReason(shown), c.reason, `${c.id}: the view's English is the host's, word for word`);
      setLocale('ko');
      const ko = unavailableReason(shown) ?? '';
      assert.notEqual(ko, c.reason, `${c.id} is said in Korean`);
      assert.match(ko, /[가-힣]/, `${c.id}: ${ko}`);
      assert.doesNotMatch(ko, /not found|install it|is not set|not configured/, `${c.id}: no English left in ${ko}`);
    }
    const claude = store.agents.find((a) => a.id === 'claude-code')!;
    setLocale('ko');
    assert.equal(unavailableReason(claude), 'PATH에서 `claude`을(를) 찾지 못했습니다. `npm i -g @anthropic-ai/claude-code`로 설치하거나 RAWP_CLAUDE_PATH 환경 변수에 실행 파일 경로를 지정하세요');
  });

  it('a phrase this view does not know (a newer host) and a reason without phrases are shown in the host\'s English', () => {
    setLocale('ko');
    assert.equal(unavailableReason({ unavailable_reason: 'needs a licence', unavailable_words: [{ id: 'not_available' }, { id: 'licence_missing' }] }), 'needs a licence');
    assert.equal(unavailableReason({ unavailable_reason: 'Restricted Mode' }), 'Restricted Mode');
    assert.equal(unavailableReason({ unavailable_reason: 'not available', unavailable_words: [{ id: 'not_available' }] }), '사용할 수 없음');
  });

  it('an agent path set to something that is not a program — the editor\'s setting or RAWP_CODEX_PATH — is said in Korean with the path as written', async () => {
    const list = await detectAgents({ env: { PATH: '', RAWP_CODEX_PATH: '/nowhere/codex' }, binDirs: [], paths: { claude: '/nowhere/claude' } });
    const words = (id: string) => {
      const c = list.find((a) => a.id === id)!;
      return { unavailable_reason: c.reason, unavailable_words: c.reasonWords };
    };
    setLocale('en');
    assert.equal(unavailableReason(words('claude-code')), 'the setting rawp.agents.claude.path (/nowhere/claude) is not an executable file');
    assert.equal(unavailableReason(words('codex')), 'RAWP_CODEX_PATH=/nowhere/codex is not an executable file');
    setLocale('ko');
    assert.equal(unavailableReason(words('claude-code')), 'rawp.agents.claude.path 설정의 경로(/nowhere/claude)가 실행 파일이 아닙니다');
    assert.equal(unavailableReason(words('codex')), 'RAWP_CODEX_PATH=/nowhere/codex은(는) 실행 파일이 아닙니다');
  });

  it('the editor: picking an agent that cannot run says why in the editor\'s language (the palette reads the same agentReasonIn)', async () => {
    const [claude] = (await detectAgents({ env: { PATH: '' }, binDirs: [], paths: {} })).filter((c) => c.id === 'claude-code');
    const summary = { id: claude.id, name: claude.displayName, available: false, ...unavailableOf(undefined, claude) };
    for (const [language, expected] of [
      ['en', claude.reason],
      ['ko', 'PATH에서 `claude`을(를) 찾지 못했습니다. `npm i -g @anthropic-ai/claude-code`로 설치하거나 rawp.agents.claude.path 설정에 실행 파일 경로를 적으세요'],
    ] as const) {
      const c = controllerFor(h.makeHost(), h, { agents: [{ id: 'builtin', name: 'Built-in', available: true }, summary], language });
      const view = viewRecorder();
      c.setView(view.post);
      await c.receive(webviewMessage('agent.pick', { agent_id: 'claude-code' }));
      const notice = view.messages.find((m) => m.kind === 'notice');
      assert.ok(notice && notice.kind === 'notice');
      assert.equal(notice.payload.message, `Claude Code cannot run: ${expected}.`, language);
      assert.equal(agentReasonIn(summary, language), expected);
    }
  });

  it('a block (Restricted Mode, in the editor\'s words) wins over the agent\'s reason and comes without phrases', async () => {
    const [claude] = (await detectAgents({ env: { PATH: '' }, binDirs: [] })).filter((c) => c.id === 'claude-code');
    assert.deepEqual(unavailableOf('제한 모드에서는 에이전트를 실행할 수 없습니다', claude), { unavailable_reason: '제한 모드에서는 에이전트를 실행할 수 없습니다' });
    assert.deepEqual(unavailableOf(undefined, { ...claude, reason: undefined, reasonWords: undefined }), { unavailable_reason: 'not available', unavailable_words: [{ id: 'not_available' }] });
  });
});
