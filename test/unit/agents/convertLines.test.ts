// `rawp convert` reads every JSON-lines transcript the same way (jsonLines, src/agents/convert/
// registry.ts): blank lines skipped, a line that is not JSON reported with its 1-based number and
// skipped, the rest converted — whatever the native format (§17.2 native stdout lines; a bad line
// is never fatal, decision 140).
import { strict as assert } from 'node:assert';
import { getConverter } from '../../../src/agents/convert';

describe('convert: one line reader for the Claude Code, Codex and ACP converters', () => {
  for (const id of ['claude-code', 'codex', 'acp']) {
    it(`§17.2 decision 140 ${id}: a line that is not JSON is a warning with its line number, blank lines are not counted as lines to read, and nothing throws`, () => {
      const converter = getConverter(id);
      assert.ok(converter, `converter ${id} is registered`);
      const result = converter.convert(['', '{not json', '   ', '[1,'], { session_id: '6f1c2a4e-1d2b-4c3a-9e8f-0a1b2c3d4e5f' });
      const notJson = result.warnings.filter((w) => w.message.startsWith('not JSON: '));
      assert.deepEqual(notJson.map((w) => w.line), [2, 4]);
    });
  }
});
