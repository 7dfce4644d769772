import { strict as assert } from 'node:assert';
import { FRAME_TYPES } from '../../../src/protocol/frameTypes';
import { HOST_COMMANDS, buildCommandsPublish, commandParameters, type FileSlashCommand } from '../../../src/commands';

function fileCmd(name: string, content: string, extra: Partial<FileSlashCommand> = {}): FileSlashCommand {
  return { name, content, description: `${name} d`, source: 'via RAWP Project', frontmatter: {}, ...extra };
}

describe('commands: agent.commands.publish', () => {
  it('§12.1.1 parameters from argument-hint: <x> required, [y] optional, duplicates once', () => {
    assert.deepEqual(commandParameters('<file> [focus] [focus...]', ''), [
      { name: 'file', type: 'string', required: true },
      { name: 'focus', type: 'string', required: false },
    ]);
    assert.deepEqual(commandParameters('free text hint', 'ignored $1'), [{ name: 'arguments', type: 'string', required: false, description: 'free text hint' }]);
  });

  it('§12.1.1 parameters from $1…$n usage when there is no hint; $ARGUMENTS gives one optional parameter', () => {
    assert.deepEqual(
      commandParameters(undefined, 'Do $2 then $1').map((p) => [p.name, p.required]),
      [['arg1', true], ['arg2', true]],
    );
    assert.deepEqual(commandParameters(undefined, 'All: $ARGUMENTS'), [{ name: 'arguments', type: 'string', required: false, description: 'All arguments ($ARGUMENTS)' }]);
    assert.deepEqual(commandParameters(undefined, 'Static text'), []);
  });

  it('§12.1.1 payload: host commands with categories first, then files; one entry per name; schema-valid', () => {
    const payload = buildCommandsPublish({
      host: HOST_COMMANDS,
      custom: [{ name: 'note', description: 'Take a note', execute: () => undefined }],
      files: [
        fileCmd('compact', 'a file that loses to the host command'),
        fileCmd('review', 'Review $1', { argumentHint: '<path>', frontmatter: { category: 'navigation' } }),
        fileCmd('odd', 'x', { frontmatter: { category: 'not-a-category' } }),
        fileCmd('agentcmd', '', { passthrough: true, argumentHint: '[n]' }),
      ],
      templates: [{ name: 'tpl', content: '$1', description: 'T' }],
    });
    FRAME_TYPES['agent.commands.publish'].payload.parse(payload);
    const names = payload.commands.map((c) => c.name);
    assert.deepEqual(names, [...HOST_COMMANDS.map((c) => c.name), 'note', 'review', 'odd', 'agentcmd', 'tpl']);
    const byName = Object.fromEntries(payload.commands.map((c) => [c.name, c]));
    assert.equal(byName.compact.category, 'session');
    assert.equal(byName.mode.category, 'config');
    assert.equal(byName.cost.category, 'display');
    assert.deepEqual(byName.review, { name: 'review', description: 'review d', parameters: [{ name: 'path', type: 'string', required: true }], category: 'navigation' });
    assert.equal(byName.odd.category, undefined);
    assert.deepEqual(byName.agentcmd.parameters, [{ name: 'n', type: 'string', required: false }]);
    assert.deepEqual(byName.tpl.parameters?.map((p) => p.name), ['arg1']);
  });
});
