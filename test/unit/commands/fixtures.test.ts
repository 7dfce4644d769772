// Realistic command files (test/fixtures/commands) copied into a temp home and workspace.
import { strict as assert } from 'node:assert';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_TYPES } from '../../../src/protocol/frameTypes';
import { CommandService } from '../../../src/commands';
import { sandbox, type Sandbox } from './tmp';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'commands');

describe('commands: realistic Claude Code / Codex / RAWP command files', () => {
  let sb: Sandbox;
  let svc: CommandService;
  beforeEach(async () => {
    sb = sandbox();
    cpSync(join(FIXTURES, 'home'), sb.home, { recursive: true });
    cpSync(join(FIXTURES, 'ws'), sb.ws, { recursive: true });
    svc = new CommandService({ home: sb.home, workspaceFolders: [sb.ws], watch: false });
    await svc.start();
  });
  afterEach(() => {
    svc.dispose();
    sb.cleanup();
  });

  it('slash-commands §1, slash-commands §2, slash-commands §3: loads every provider, the user commit shadows the project one, bundled fill the rest', () => {
    const s = svc.snapshot;
    const bySource = Object.fromEntries(s.commands.map((c) => [c.name, c.source]));
    assert.deepEqual(bySource, {
      release: 'via RAWP Project',
      commit: 'via Claude Code User',
      'fix-issue': 'via Claude Code User',
      'explain-code': 'via Codex User',
      review: 'bundled',
      explain: 'bundled',
      test: 'bundled',
    });
    assert.ok(s.all.some((c) => c.name === 'commit' && c.source === 'via Claude Code Project' && c._shadowed));
  });

  it('slash-commands §3 a common Claude argument-hint that is not valid YAML warns and still loads', () => {
    const s = svc.snapshot;
    const fix = s.commands.find((c) => c.name === 'fix-issue');
    assert.equal(fix?.description, 'Fix a GitHub issue');
    assert.equal(fix?.argumentHint, '[pr-number] [priority] [assignee]');
    assert.deepEqual(s.diagnostics.map((d) => [d.severity, /fix-issue\.md/.test(d.message)]), [['warning', true]]);
  });

  it('slash-commands §3 long first line becomes a 60-character description with ...', () => {
    const release = svc.snapshot.commands.find((c) => c.name === 'release');
    assert.equal(release?.description, 'Prepare release $1: update the changelog, bump the version i...');
  });

  it('§12.1.1 the published list is schema-valid, with parameters from hints and placeholders', () => {
    const pub = svc.snapshot.publish;
    FRAME_TYPES['agent.commands.publish'].payload.parse(pub);
    const byName = Object.fromEntries(pub.commands.map((c) => [c.name, c]));
    assert.deepEqual(byName.commit.parameters, [{ name: 'message', type: 'string', required: false }]);
    assert.deepEqual(byName['fix-issue'].parameters?.map((p) => p.name), ['pr-number', 'priority', 'assignee']);
    assert.deepEqual(byName.release.parameters?.map((p) => [p.name, p.required]), [['arg1', true]]);
  });

  it('§6.1.1 slash-commands §6 expanding the fixtures end to end', async () => {
    const commit = await svc.pipeline.run('/commit "Fix login redirect"');
    assert.ok(commit.kind === 'prompt' && commit.payload.input_type === 'slash_command');
    assert.match(commit.kind === 'prompt' ? commit.payload.prompt_text : '', /with this message: Fix login redirect\n$/);
    const fix = await svc.pipeline.run('/fix-issue 123 high');
    assert.equal(fix.kind === 'prompt' && fix.payload.prompt_text, '\nFix issue #123 following our coding standards. Priority: high. Assign the PR to .\n');
    const rel = await svc.pipeline.run('/release 2.1.0');
    assert.match(rel.kind === 'prompt' ? rel.payload.prompt_text : '', /tag it as v2\.1\.0\./);
  });
});
