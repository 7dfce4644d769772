// `rawp attach` is a master of ours too (decision 101): it announces the x-rawp extension, so a
// follow-up typed while a turn runs is queued by the host and sent after turn.end, and the host's
// reply is printed as a notice line — against the editor's session host and its sharing server.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { TerminalMaster } from '../../../src/cli/attach/terminalMaster';
import { generateToken } from '../../../src/remote/auth';
import { HostSharing } from '../../../src/host/sharing';
import { waitFor } from '../remote/harness';
import type { TurnScript } from '../../support/scriptedAdapter';
import { harness, type Harness } from './harness';

describe('host: rawp attach queues follow-ups like the other masters of ours (decision 101, slash-commands §8)', () => {
  let h: Harness;
  let sharing: HostSharing | undefined;
  let master: TerminalMaster | undefined;
  beforeEach(() => {
    h = harness();
  });
  afterEach(async () => {
    master?.stop();
    await h.cleanup();
    await sharing?.close();
  });

  /** A shared editor host whose scripted agent plays `turns`, and `rawp attach`'s master on a pipe (not started). */
  async function attachTo(turns: TurnScript[], language?: 'ko') {
    const host = h.makeHost({ defaultAgent: 'scripted', scripted: { turns } });
    const token = generateToken();
    sharing = new HostSharing({ host, logger: { debug() {}, info() {}, warn() {}, error() {} }, settings: async () => ({ token }) });
    const id = await host.create({ agent: 'scripted' });
    const server = await sharing.share(id);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const seen = { out: '' };
    stdout.on('data', (d: Buffer) => (seen.out += d.toString()));
    master = new TerminalMaster({ url: server.attachUrl(id), token, session_id: id, stdin, stdout, ...(language ? { language } : {}) });
    return { master, stdin, seen };
  }

  /** A first turn that waits for `release()`, then a second one. */
  function gatedTurns(): { release: () => void; turns: TurnScript[] } {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    return { release, turns: [{ steps: [{ kind: 'waitFor', promise: gate }, { kind: 'text', chunks: ['first done'] }] }, { steps: [{ kind: 'text', chunks: ['second done'] }] }] };
  }

  it('§17.3.2 not refused: a line typed during a turn is queued (the notice is printed) and runs as the next turn', async () => {
    const { release, turns } = gatedTurns();
    const { master, stdin, seen } = await attachTo(turns);
    master.start();
    await waitFor(() => seen.out.includes('[attached to session'), 'attached');
    stdin.write('one\n');
    await waitFor(() => h.scripted[0].prompts.length === 1, 'the first turn runs');
    stdin.write('two\n');
    await waitFor(() => seen.out.includes('queued'), 'the queued notice is printed');
    assert.ok(!seen.out.includes('PROMPT_IN_PROGRESS'), 'not refused');
    release();
    await waitFor(() => h.scripted[0].prompts.length === 2, 'the follow-up runs after turn.end');
    assert.equal(h.scripted[0].prompts[1].text, 'two');
    await waitFor(() => seen.out.includes('second done'), 'its answer is printed');
    assert.equal(seen.out.split('› two').length - 1, 1, 'the follow-up is printed once');
  });

  it('the host\'s notices are printed in the terminal\'s language (language ko): /stop with no turn, /rename', async () => {
    const { master, stdin, seen } = await attachTo([], 'ko');
    master.start();
    // attach's own words are Korean too (decision 601).
    await waitFor(() => seen.out.includes('에 연결했습니다.'), 'attached');
    stdin.write('/stop\n');
    await waitFor(() => seen.out.includes('[진행 중인 턴이 없습니다.]'), 'the no-turn notice in Korean');
    stdin.write('/rename 출시\n');
    await waitFor(() => seen.out.includes('[세션 이름이 “출시”(으)로 바뀌었습니다.]'), 'the rename notice in Korean');
    assert.ok(!seen.out.includes('No turn is running'), seen.out);
  });

  it('piped input that ends: attach leaves once the turns its prompts started ended, a queued follow-up included (it stayed attached forever)', async () => {
    const { release, turns } = gatedTurns();
    const { master, stdin, seen } = await attachTo(turns);
    let code: number | undefined;
    void master.done.then((c) => (code = c));
    master.start();
    stdin.end('one\ntwo\n'); // both lines, then the end of input, before the attach completes
    await waitFor(() => h.scripted[0].prompts.length === 1, 'the first turn runs');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(code, undefined, 'still attached while its turn runs');
    release();
    await waitFor(() => code !== undefined, 'attach leaves after the queued second turn', 30_000);
    assert.equal(code, 0);
    assert.equal(h.scripted[0].prompts.length, 2);
    assert.ok(seen.out.includes('second done'), seen.out);
  });
});
