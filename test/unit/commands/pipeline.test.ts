import { strict as assert } from 'node:assert';
import { FRAME_TYPES } from '../../../src/protocol/frameTypes';
import { PromptPipeline, type CustomCommand, type FileSlashCommand, type PipelineAction, type PromptTemplate } from '../../../src/commands';

function fileCmd(name: string, content: string, extra: Partial<FileSlashCommand> = {}): FileSlashCommand {
  return { name, content, description: `${name} command`, source: 'via Claude Code Project', frontmatter: {}, ...extra };
}

function pipeline(opts: { files?: FileSlashCommand[]; custom?: CustomCommand[]; templates?: PromptTemplate[]; report?: (e: unknown, c: string) => void } = {}) {
  return new PromptPipeline({
    fileCommands: () => opts.files ?? [],
    customCommands: () => opts.custom ?? [],
    templates: () => opts.templates ?? [],
    report: opts.report,
  });
}

function promptOf(a: PipelineAction) {
  assert.equal(a.kind, 'prompt', JSON.stringify(a));
  if (a.kind !== 'prompt') throw new Error('unreachable');
  // Every prompt the pipeline makes is a valid §6.1.1 payload.
  FRAME_TYPES['control.prompt.request'].payload.parse(a.payload);
  return a;
}

describe('commands: the prompt pipeline', () => {
  it('§6.3.1 /compact maps to control.session.compact, with the rest as the instruction', async () => {
    const p = pipeline({ files: [fileCmd('compact', 'file compact')] });
    assert.deepEqual(await p.run('/compact'), { kind: 'control', command: 'compact', type: 'control.session.compact', payload: {} });
    const a = await p.run('/compact keep the API notes');
    assert.deepEqual(a, { kind: 'control', command: 'compact', type: 'control.session.compact', payload: { instruction: 'keep the API notes' } });
    if (a.kind === 'control') FRAME_TYPES[a.type].payload.parse(a.payload);
  });

  it('§6.3.2 /mode maps to control.mode.switch; a bad mode is a usage error and nothing is sent', async () => {
    const p = pipeline();
    assert.deepEqual(await p.run('/mode plan'), { kind: 'control', command: 'mode', type: 'control.mode.switch', payload: { mode: 'plan' } });
    const bad = await p.run('/mode turbo');
    assert.equal(bad.kind, 'error');
    if (bad.kind === 'error') assert.match(bad.message, /Unknown mode "turbo".*default\|plan\|review/);
    assert.equal((await p.run('/mode')).kind, 'error');
  });

  it('slash-commands §7 host commands without a frame become local actions (/clear /cost /rename /stop /help); /model is the agent\'s (decision 677)', async () => {
    const p = pipeline({ files: [fileCmd('deploy', 'Deploy')] });
    assert.deepEqual(await p.run('/clear'), { kind: 'local', command: 'clear', action: 'clear' });
    // The host cannot choose a model for every agent: /model is not one of its commands, so it goes on as typed (§7).
    const model = await p.run('/model opus');
    assert.equal(model.kind, 'prompt');
    if (model.kind === 'prompt') assert.equal(model.payload.prompt_text, '/model opus');
    assert.deepEqual(await p.run('/cost'), { kind: 'local', command: 'cost', action: 'cost' });
    assert.deepEqual(await p.run('/rename  Bug hunt '), { kind: 'local', command: 'rename', action: 'rename', name: 'Bug hunt' });
    assert.equal((await p.run('/rename')).kind, 'error');
    assert.deepEqual(await p.run('/stop'), { kind: 'local', command: 'stop', action: 'cancel' });
    const help = await p.run('/help');
    assert.equal(help.kind === 'local' && help.action === 'help' && help.commands.some((c) => c.name === 'deploy' && c.source === 'via Claude Code Project'), true);
  });

  it('slash-commands §5 host commands come before file commands of the same name', async () => {
    const a = await pipeline({ files: [fileCmd('clear', 'a file named clear')] }).run('/clear');
    assert.equal(a.kind, 'local');
  });

  it('slash-commands §5 a custom command returning a string replaces the prompt, then file commands see it', async () => {
    const custom: CustomCommand[] = [
      { name: 'shout', execute: (args) => args.join(' ').toUpperCase() },
      { name: 'alias', execute: (args) => `/review ${args.join(' ')}` },
    ];
    const p = pipeline({ custom, files: [fileCmd('review', 'Please review $1')] });
    const shout = promptOf(await p.run('/shout "hello there" you'));
    assert.deepEqual(shout, { kind: 'prompt', command: 'shout', payload: { prompt_text: 'HELLO THERE YOU', input_type: 'slash_command' } });
    const alias = promptOf(await p.run('/alias a.ts'));
    assert.equal(alias.payload.prompt_text, 'Please review a.ts');
    assert.equal(alias.command, 'review');
  });

  it('slash-commands §5 a custom command returning nothing is handled: no prompt', async () => {
    let seen: string[] = [];
    const p = pipeline({ custom: [{ name: 'note', execute: async (args) => void (seen = args) }], files: [fileCmd('note', 'file note')] });
    assert.deepEqual(await p.run("/note 'a b' c"), { kind: 'handled', command: 'note' });
    assert.deepEqual(seen, ['a b', 'c']);
  });

  it('slash-commands §9 a handler exception is reported and counts as handled (no fallback to the file command)', async () => {
    const reported: Array<[string, string]> = [];
    const p = pipeline({
      custom: [{ name: 'boom', execute: () => { throw new Error('kaput'); } }],
      files: [fileCmd('boom', 'the file command must not run')],
      report: (e, c) => reported.push([c, (e as Error).message]),
    });
    const a = await p.run('/boom now');
    assert.deepEqual(a, { kind: 'error', command: 'boom', message: '/boom failed: kaput' });
    assert.deepEqual(reported, [['boom', 'kaput']]);
    // async rejection too
    const q = pipeline({ custom: [{ name: 'later', execute: async () => Promise.reject(new Error('nope')) }] });
    assert.equal((await q.run('/later')).kind, 'error');
  });

  it('§6.1.1 a file command expands and is sent with input_type slash_command', async () => {
    const p = pipeline({ files: [fileCmd('review', 'Review $1 for $2')] });
    const a = promptOf(await p.run('/review "src/a b.ts" bugs', { file_references: [] }));
    assert.deepEqual(a.payload, { prompt_text: 'Review src/a b.ts for bugs', input_type: 'slash_command', file_references: [] });
    assert.equal(a.command, 'review');
  });

  it('§6.1.1 plain text is sent with input_type text and unchanged', async () => {
    const a = promptOf(await pipeline({ files: [fileCmd('x', 'X')] }).run('fix the /x thing'));
    assert.deepEqual(a.payload, { prompt_text: 'fix the /x thing', input_type: 'text' });
    assert.equal(a.command, undefined);
  });

  it('slash-commands §7 an unknown /command passes through literally (as slash_command input for the agent)', async () => {
    const a = promptOf(await pipeline().run('/init please'));
    assert.deepEqual(a.payload, { prompt_text: '/init please', input_type: 'slash_command' });
    // A path is not a command.
    assert.equal(promptOf(await pipeline().run('/usr/bin/env is missing')).payload.input_type, 'text');
  });

  it('agent-reported commands pass through unchanged so the agent expands them', async () => {
    const p = pipeline({ files: [fileCmd('pr-comments', '', { passthrough: true })] });
    const a = promptOf(await p.run('/pr-comments 42'));
    assert.deepEqual(a.payload, { prompt_text: '/pr-comments 42', input_type: 'slash_command' });
    assert.equal(a.command, 'pr-comments');
  });

  it('slash-commands §5 prompt templates apply after file commands', async () => {
    const templates = [{ name: 'tpl', content: 'Template: $ARGUMENTS' }];
    const p = pipeline({ templates, files: [fileCmd('via-file', '/tpl from file $1')] });
    assert.equal(promptOf(await p.run('/tpl one two')).payload.prompt_text, 'Template: one two');
    // A file command whose expansion is itself a template invocation reaches the template step.
    const chained = promptOf(await p.run('/via-file X'));
    assert.equal(chained.payload.prompt_text, 'Template: from file X');
    assert.equal(chained.command, 'tpl');
  });
});
