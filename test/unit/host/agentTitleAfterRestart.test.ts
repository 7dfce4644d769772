// Decision 727: whether a person gave a session its name survives a restart. Decision 725 lets an
// agent's own title (ACP session_info_update) rename a session unless a person named it — but a
// restored session came back with its stored name as if a person had given it, so an agent-titled
// or prompt-named chat never took the agent's titles again after a window reload or a `rawp serve`
// restart. The journal now keeps `name_by_person`. A real host, its journal on disk, the scripted
// agent emitting the title the ACP adapter turns a session_info_update into.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../src/protocol/build';
import type { SessionHost } from '../../../src/host/sessionHost';
import { LOCAL_VIEW_FEATURES } from '../../../src/host/sessionHost';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import type { Connection, WireFrame } from '../../../src/session/connection';
import type { TurnScript } from '../../support/scriptedAdapter';
import { until } from '../../support/settle';
import { harness, type Harness } from './harness';

const titled = (title: string): TurnScript => ({
  steps: [
    { kind: 'emit', event: { type: 'session.renamed', payload: { name: title } } as never },
    { kind: 'text', chunks: ['ok'] },
  ],
});

describe('host: an agent\'s title after a restart (§7.6, decision 727)', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  async function turn(host: SessionHost, id: string, text: string): Promise<void> {
    const got: WireFrame[] = [];
    const view: Connection = { id: `view-${Math.random()}`, kind: 'local', features: LOCAL_VIEW_FEATURES, extensions: OUR_MASTER_EXTENSIONS, send: (f) => void got.push(f), close: () => undefined };
    host.hub.attach(id, view);
    host.fromView(view.id, buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }));
    await until(() => got.some((f) => f.type === 'session.turn.end'), `the turn "${text}" ends`, 20_000);
    host.hub.detach(view.id);
  }
  const nameOf = (host: SessionHost, id: string) => host.list().find((s) => s.session_id === id)?.name;
  const indexed = (id: string) => (JSON.parse(readFileSync(join(h.storeDir, 'sessions.json'), 'utf8')) as { sessions: { session_id: string; name: string; name_by_person?: boolean }[] }).sessions.find((s) => s.session_id === id);

  it('§7.6 a session the agent titled takes the agent\'s next title after the restart (it came back as if a person had named it: the title was ignored)', async () => {
    const first = h.makeHost({ scripted: { turns: [titled('Fix the build')] }, namesFromPrompt: false });
    const id = await first.create({ agent: 'scripted' });
    await turn(first, id, 'go');
    await until(() => nameOf(first, id) === 'Fix the build', 'the agent\'s title names the session');
    await first.dispose();
    assert.deepEqual([indexed(id)?.name, indexed(id)?.name_by_person], ['Fix the build', false], 'the journal says no person gave the name');

    const second = h.makeHost({ scripted: { turns: [titled('Fix the build, then the tests')] } });
    assert.deepEqual(await second.restoreAll(), [id]);
    assert.equal(nameOf(second, id), 'Fix the build');
    await turn(second, id, 'go on');
    await until(() => nameOf(second, id) === 'Fix the build, then the tests', 'the restored session takes the agent\'s new title');
  });

  it('§7.6 a session named from its first prompt\'s words (decision 651) takes an agent\'s title after the restart too', async () => {
    const first = h.makeHost({ scripted: { turns: [{ steps: [{ kind: 'text', chunks: ['ok'] }] }] } });
    const id = await first.create({ agent: 'scripted' });
    await turn(first, id, 'make the parser faster');
    await until(() => nameOf(first, id) === 'make the parser faster', 'the prompt names the session');
    await first.dispose();

    const second = h.makeHost({ scripted: { turns: [titled('Parser speed-up')] } });
    await second.restoreAll();
    await turn(second, id, 'go on');
    await until(() => nameOf(second, id) === 'Parser speed-up', 'the agent\'s title replaces the prompt\'s words');
  });

  it('§7.6 a name a person gave — when created, or by renaming an agent-titled session — is never replaced by the agent\'s title after the restart', async () => {
    const first = h.makeHost({ scripted: { turns: [titled('Agent title'), titled('Agent title')] }, namesFromPrompt: false });
    const given = await first.create({ agent: 'scripted', name: 'Auth work' });
    const renamed = await first.create({ agent: 'scripted' });
    await turn(first, renamed, 'go');
    await until(() => nameOf(first, renamed) === 'Agent title', 'the agent titles the second session');
    assert.equal(first.registry.rename(renamed, 'My name', 'client'), true);
    await until(() => indexed(renamed)?.name === 'My name', 'the rename reaches the journal');
    assert.equal(indexed(renamed)?.name_by_person, true);
    assert.equal(indexed(given)?.name_by_person, true);
    await first.dispose();

    const second = h.makeHost({ scripted: { turns: [titled('Another title'), titled('Another title')] } });
    assert.deepEqual((await second.restoreAll()).sort(), [given, renamed].sort());
    await turn(second, given, 'go');
    await turn(second, renamed, 'go');
    assert.equal(nameOf(second, given), 'Auth work');
    assert.equal(nameOf(second, renamed), 'My name');
  });
});
