import { strict as assert } from 'node:assert';
import { FrameFactory } from '../../../src/protocol/build';
import { FollowUpQueue, PromptPipeline, PromptRouter, type FileSlashCommand } from '../../../src/commands';

const f = new FrameFactory('s');
const review: FileSlashCommand = { name: 'review', content: 'Review $1 carefully', description: 'r', source: 'via RAWP User', frontmatter: {} };

function setup() {
  const sent: string[] = [];
  const queue = new FollowUpQueue({ send: (p) => sent.push(`${p.input_type}:${p.prompt_text}`) });
  const pipeline = new PromptPipeline({ fileCommands: () => [review] });
  return { sent, queue, pipeline, router: new PromptRouter(pipeline, queue) };
}

describe('commands: routing typed input during a turn (slash-commands §8, §17.3.2)', () => {
  it('slash-commands §8 while a turn streams, host commands act at once and are never queued', async () => {
    const { router, queue } = setup();
    queue.observe(f.make('session.turn.start', { turn_id: 't', turn_index: 0 }));
    const r = await router.submit('/compact keep tests');
    assert.equal(r.action.kind, 'control');
    assert.equal(r.delivery, undefined);
    assert.equal(queue.state.items.length, 0);
  });

  it('slash-commands §8 while a turn streams, a file command is expanded at submit time and queued as a follow-up', async () => {
    const { router, queue, sent } = setup();
    queue.observe(f.make('session.turn.start', { turn_id: 't', turn_index: 0 }));
    const r = await router.submit('/review a.ts');
    assert.equal(r.delivery?.status, 'queued');
    assert.equal(queue.state.items[0].payload.prompt_text, 'Review a.ts carefully');
    queue.observe(f.make('session.turn.end', { turn_id: 't', stop_reason: 'end_turn' }));
    assert.deepEqual(sent, ['slash_command:Review a.ts carefully']);
  });

  it('§17.3.2 idle: the prompt is sent at once', async () => {
    const { router, sent } = setup();
    assert.deepEqual((await router.submit('hello')).delivery, { status: 'sent' });
    assert.deepEqual(sent, ['text:hello']);
  });

  it('slash-commands §8 isKnownCommand: host, file; not unknown names or plain text', () => {
    const { pipeline } = setup();
    assert.equal(pipeline.isKnownCommand('/compact'), true);
    assert.equal(pipeline.isKnownCommand('/review x'), true);
    assert.equal(pipeline.isKnownCommand('/unknown'), false);
    assert.equal(pipeline.isKnownCommand('review'), false);
  });
});
