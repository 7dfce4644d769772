import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DECISIONS_DIR, INDEX_FILE, generateIndex, parseRecord, readRecords } from '../../../scripts/decisions-index';

const record = (n: string, extra = ''): string =>
  `# ${n}. A title\n\n- Status: accepted\n- Date: 2026-12-01\n- Area: src/x\n\n## Context\n\nc\n\n## Decision\n\nd\n\n## Why\n\nw\n${extra}`;

describe('decision records (docs/decisions)', () => {
  it('the index docs/decisions/README.md is what `npm run decisions` generates (fails when stale)', () => {
    const onDisk = readFileSync(join(DECISIONS_DIR, INDEX_FILE), 'utf8');
    assert.equal(onDisk, generateIndex(), 'docs/decisions/README.md is stale: run `npm run decisions`');
  });

  it('every record parses, numbers are unique, and each index row links an existing record', () => {
    const records = readRecords();
    assert.ok(records.length >= 90, `expected the split records, got ${records.length}`);
    const index = readFileSync(join(DECISIONS_DIR, INDEX_FILE), 'utf8');
    for (const r of records) assert.ok(index.includes(`](${r.file})`), `${r.file} is not in the index`);
  });

  it('parseRecord reads the fields and refuses a record without a Why section or with a wrong number', () => {
    const r = parseRecord('007-a-title.md', record('007'));
    assert.deepEqual(r, { file: '007-a-title.md', number: 7, title: 'A title', status: 'accepted', date: '2026-12-01', area: 'src/x' });
    assert.throws(() => parseRecord('007-a-title.md', record('007').replace('## Why', '## Because')), /missing the section "## Why"/);
    assert.throws(() => parseRecord('008-a-title.md', record('007')), /first heading must be "# 008\. Title"/);
    assert.throws(() => parseRecord('8-Title.md', record('008')), /file name/);
    assert.throws(() => parseRecord('007-a-title.md', record('007').replace('- Date: 2026-12-01', 'Date: yesterday')), /Date must be YYYY-MM-DD/);
  });

  it('parseRecord also reads plain and bold field lines, and Area is optional', () => {
    const plain = record('009').replace('- Status: accepted\n- Date: 2026-12-01\n- Area: src/x', 'Status: accepted\n**Date:** 2026-12-01');
    assert.deepEqual(parseRecord('009-a-title.md', plain), { file: '009-a-title.md', number: 9, title: 'A title', status: 'accepted', date: '2026-12-01', area: '—' });
  });
});
