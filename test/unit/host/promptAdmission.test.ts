// Issue 11 item 2: one prompt admission for every connection. A remote master's `/command` is
// expanded like the editor's (slash-commands §5–§7), input_type follows one rule, a master of ours
// gets its follow-up queued while a raw master still gets PROMPT_IN_PROGRESS (§17.3.2), and the
// built-in agent runs an expanded command's text as it is.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../src/protocol/build';
import type { Frame } from '../../../src/protocol/frameTypes';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { ALL_FEATURES } from '../../support/recordingConnection';
import { until } from '../../support/settle';
import { harness, type Harness } from './harness';

type Master = Connection & { got: WireFrame[] };

function master(id: string, ours: boolean): Master {
  const got: WireFrame[] = [];
  return { id, kind: 'remote', features: ALL_FEATURES, ...(ours ? { extensions: OUR_MASTER_EXTENSIONS } : {}), got, send: (f) => void got.push(f), close: () => undefined };
}

const promptFrame = (session_id: string, prompt_text: string, input_type?: 'text' | 'slash_command') =>
  buildFrame('control.prompt.request', { prompt_text, ...(input_type ? { input_type } : {}) }, { session_id });

const ofType = <T extends Frame['type']>(frames: readonly WireFrame[], type: T) => frames.filter((f): f is Extract<Frame, { type: T }> => f.type === type);

describe('host: prompt admission for every connection (issue 11, slash-commands §5–§8)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
    const dir = join(h.workspace, '.claude', 'commands');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'findit.md'), '---\ndescription: Find a word in the workspace\n---\nfind $ARGUMENTS\n');
    writeFileSync(join(dir, 'peek.md'), 'read $ARGUMENTS\n');
    writeFileSync(join(dir, 'literal.md'), 'find <@file:x|y> \\d\n');
  });
  afterEach(() => h.cleanup());

  async function shared(agent?: string) {
    const host = h.makeHost(agent ? { defaultAgent: agent } : {});
    const id = await host.create(agent ? { agent } : {});
    host.hub.share(id);
    return { host, id };
  }

  it('slash-commands §6 a remote master\'s "/findit greeting" is published, expanded to "find greeting" (input_type slash_command) and run by the agent', async () => {
    const { host, id } = await shared();
    const sender = master('raw-1', false);
    const watcher = master('raw-2', false);
    host.hub.attach(id, sender);
    host.hub.attach(id, watcher);
    const published = ofType(watcher.got, 'agent.commands.publish').at(-1)!;
    assert.ok(published.payload.commands.some((c) => c.name === 'findit' && c.description === 'Find a word in the workspace'), 'the workspace command is published to the master');
    const p = promptFrame(id, '/findit greeting', 'text');
    host.hub.receive('raw-1', JSON.stringify(p));
    await until(() => ofType(watcher.got, 'session.turn.end').length === 1, 'the turn ends');
    const relayed = ofType(watcher.got, 'control.prompt.request');
    assert.equal(relayed.length, 1);
    assert.equal(relayed[0].message_id, p.message_id, 'the sender\'s own id is kept');
    assert.equal(relayed[0].payload.prompt_text, 'find greeting\n');
    assert.equal(relayed[0].payload.input_type, 'slash_command', 'input_type by one rule, not what the sender said');
    const grep = ofType(watcher.got, 'tool.invoke.request').find((f) => f.payload.tool_name === 'Grep');
    assert.ok(grep, 'the agent ran the expanded text (a Grep), not an unknown "/findit"');
    assert.equal(ofType(sender.got, 'control.prompt.request').length, 0, 'no echo to the sender (§2.4)');
  });

  it('issue 11: "/peek src/greeting.ts" with a "read $ARGUMENTS" body reads the file with the built-in agent (no "/" put back)', async () => {
    const { host, id } = await shared();
    const m = master('raw', false);
    host.hub.attach(id, m);
    host.hub.receive('raw', JSON.stringify(promptFrame(id, '/peek src/greeting.ts')));
    await until(() => ofType(m.got, 'session.turn.end').length === 1, 'the turn ends');
    const read = ofType(m.got, 'tool.invoke.result').find((f) => JSON.stringify(f.payload).includes('Hello'));
    assert.ok(read, `the file was read: ${JSON.stringify(ofType(m.got, 'agent.text.delta').map((f) => f.payload.text).join(''))}`);
  });

  it('§16.2.2 a command body is literal text: a "<@" in it is escaped, so it never becomes a file-reference token', async () => {
    const { host, id } = await shared();
    const sender = master('raw-1', false);
    const watcher = master('raw-2', false);
    host.hub.attach(id, sender);
    host.hub.attach(id, watcher);
    host.hub.receive('raw-1', JSON.stringify(promptFrame(id, '/literal')));
    await until(() => ofType(watcher.got, 'control.prompt.request').length === 1, 'relayed');
    assert.equal(ofType(watcher.got, 'control.prompt.request')[0].payload.prompt_text, 'find \\<@file:x|y> \\\\d\n');
  });

  it('§17.3.2 a raw master that sends during a turn gets PROMPT_IN_PROGRESS; a master of ours that asked to queue gets its prompt sent after turn.end', async () => {
    const { host, id } = await shared();
    const raw = master('raw', false);
    const ours = master('ours', true);
    host.hub.attach(id, raw);
    host.hub.attach(id, ours);
    // `run` asks for permission (default mode): the turn stays open until the answer.
    host.hub.receive('ours', JSON.stringify(promptFrame(id, 'run `echo first`')));
    await until(() => ofType(raw.got, 'agent.interaction.request').length === 1, 'the turn waits for a permission answer');
    const rawPrompt = promptFrame(id, 'read src/greeting.ts');
    host.hub.receive('raw', JSON.stringify(rawPrompt));
    await until(() => ofType(raw.got, 'session.error').length === 1, 'the raw master is refused');
    assert.equal(ofType(raw.got, 'session.error')[0].payload.error_code, 'PROMPT_IN_PROGRESS');
    assert.equal(ofType(raw.got, 'session.error')[0].parent_id, rawPrompt.message_id);
    const followUp = promptFrame(id, 'read src/greeting.ts');
    host.hub.receive('ours', JSON.stringify(followUp));
    await until(() => ours.got.some((f) => f.type === 'x-rawp.notice'), 'ours is told it is queued');
    assert.equal(ofType(ours.got, 'session.error').filter((f) => f.parent_id === followUp.message_id).length, 0, 'no refusal for the master that asked to queue');
    const ask = ofType(raw.got, 'agent.interaction.request')[0];
    const allow = ask.payload.options?.find((o) => /allow/i.test(o.value))?.value ?? 'allow_once';
    host.hub.receive('raw', JSON.stringify(buildFrame('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: allow }, { session_id: id })));
    await until(() => ofType(raw.got, 'session.turn.end').length === 2, 'the queued follow-up ran as the next turn');
    const released = ofType(raw.got, 'control.prompt.request').filter((f) => f.message_id === followUp.message_id);
    assert.equal(released.length, 1, 'the follow-up went out once, under the id its master gave it');
    const order = raw.got.filter((f) => f.type === 'session.turn.end' || f.message_id === followUp.message_id).map((f) => f.type);
    assert.deepEqual(order, ['session.turn.end', 'control.prompt.request', 'session.turn.end'], 'after the first turn ended');
  });

  it('slash-commands §5 host commands work from any master: /rename renames (§7.6), /help answers a master of ours with a notice, a raw master gets no frame it cannot read', async () => {
    const { host, id } = await shared();
    const raw = master('raw', false);
    const ours = master('ours', true);
    host.hub.attach(id, raw);
    host.hub.attach(id, ours);
    host.hub.receive('raw', JSON.stringify(promptFrame(id, '/rename From afar')));
    await until(() => ofType(ours.got, 'session.renamed').length === 1, 'renamed');
    assert.equal(ofType(ours.got, 'session.renamed')[0].payload.name, 'From afar');
    // Decision 566: a name of nothing visible is not taken, and the master is told why.
    host.hub.receive('ours', JSON.stringify(promptFrame(id, '/rename \u202E\u2066')));
    await until(() => ours.got.some((f) => f.type === 'x-rawp.notice'), 'blank rename notice');
    const blank = ours.got.find((f) => f.type === 'x-rawp.notice') as { payload: { message: string } };
    assert.match(blank.payload.message, /no visible characters/);
    assert.equal(ofType(ours.got, 'session.renamed').length, 1, 'not renamed');
    ours.got.length = 0;
    host.hub.receive('ours', JSON.stringify(promptFrame(id, '/help')));
    host.hub.receive('raw', JSON.stringify(promptFrame(id, '/help')));
    await until(() => ours.got.some((f) => f.type === 'x-rawp.notice'), 'help notice');
    const help = ours.got.find((f) => f.type === 'x-rawp.notice') as { payload: { message: string } };
    assert.match(help.payload.message, /\/findit — Find a word/);
    assert.ok(!raw.got.some((f) => f.type.startsWith('x-')), 'no vendor frame to a raw master');
    assert.equal(ofType(raw.got, 'control.prompt.request').length, 0, 'host commands are consumed, never relayed as prompts');
    host.hub.receive('raw', JSON.stringify(promptFrame(id, '/mode nonsense')));
    await until(() => ofType(raw.got, 'session.error').length === 1, 'bad usage is refused');
    assert.equal(ofType(raw.got, 'session.error')[0].payload.error_code, 'COMMAND_FAILED');
    assert.match(ofType(raw.got, 'session.error')[0].payload.message, /Unknown mode "nonsense"/);
  });

  it('slash-commands §7 /cost says the session\'s usage so far from any master of ours: nothing before a turn, then its prompts and tokens, and that the built-in agent reports no cost (decision 677)', async () => {
    const { host, id } = await shared();
    const ours = master('ours', true);
    host.hub.attach(id, ours);
    const notices = () => ours.got.filter((f) => f.type === 'x-rawp.notice') as unknown as { payload: { message: string; words?: { id: string; args?: string[] } } }[];
    host.hub.receive('ours', JSON.stringify(promptFrame(id, '/cost')));
    await until(() => notices().length === 1, 'the first /cost');
    assert.equal(notices()[0].payload.words?.id, 'cost_nothing_yet');
    assert.match(notices()[0].payload.message, /no turn has run/);
    host.hub.receive('ours', JSON.stringify(promptFrame(id, 'help')));
    await until(() => ofType(ours.got, 'session.turn.end').length === 1, 'a turn ran');
    host.hub.receive('ours', JSON.stringify(promptFrame(id, '/cost')));
    await until(() => notices().length === 2, 'the second /cost');
    assert.deepEqual(notices()[1].payload.words, { id: 'cost_unreported', args: ['1', '0', '0'] });
    assert.match(notices()[1].payload.message, /prompts: 1, tokens in: 0, tokens out: 0\. This agent reports no cost\./);
    assert.ok(!notices().some((n) => /not available/.test(n.payload.message)));
  });
});
