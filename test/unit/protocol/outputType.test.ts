// §5.3.3 output_type: catalog declaration > category default > text, and allowedOutputTypes, the
// same table read backwards for the validator.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { allowedOutputTypes, categoryDefault, decideOutputType, OutputType, ToolCategory, type CatalogEntryLike } from '../../../src/protocol';

describe('protocol/outputType: decideOutputType', () => {
  it('§5.3.3 a catalog declaration wins over the category default', () => {
    const catalog: CatalogEntryLike[] = [{ name: 'Bash', category: 'shell', output_type: 'structured' }];
    assert.equal(decideOutputType('Bash', catalog), 'structured');
    assert.equal(decideOutputType('Bash', catalog, { changed: true, fileList: true }), 'structured');
  });

  const rows: [CatalogEntryLike['category'], string, ReturnType<typeof decideOutputType>][] = [
    ['filesystem', 'Read', 'file_content'],
    ['filesystem', 'Glob', 'file_list'],
    ['filesystem', 'LS', 'file_list'],
    ['filesystem', 'Edit', 'diff'],
    ['filesystem', 'MultiEdit', 'diff'],
    ['filesystem', 'Write', 'diff'],
    ['notebook', 'NotebookRead', 'file_content'],
    ['notebook', 'NotebookEdit', 'diff'],
    ['shell', 'Bash', 'text'],
    ['search', 'Grep', 'text'],
    ['web', 'WebFetch', 'web_content'],
    ['task_management', 'TodoWrite', 'structured'],
    ['agent', 'Task', 'agent_result'],
  ];
  for (const [category, name, expected] of rows) {
    it(`§5.3.3 category ${category}: ${name} defaults to ${expected}`, () => {
      assert.equal(decideOutputType(name, [{ name, category }]), expected);
    });
  }

  it('§5.3.3 write tools: diff when the file changed, empty when it did not', () => {
    assert.equal(decideOutputType('Edit', [{ name: 'Edit', category: 'filesystem' }], { changed: true }), 'diff');
    assert.equal(decideOutputType('Write', [{ name: 'Write', category: 'filesystem' }], { changed: false }), 'empty');
  });

  it('§5.3.3 search tools: file_list when the output is paths, else text', () => {
    assert.equal(decideOutputType('Grep', [{ name: 'Grep', category: 'search' }], { fileList: true }), 'file_list');
    assert.equal(decideOutputType('Grep', [{ name: 'Grep', category: 'search' }], { fileList: false }), 'text');
  });

  it('§5.3.3 an unnamed filesystem tool follows the producer\'s hints, else falls back to text', () => {
    const cat: CatalogEntryLike[] = [{ name: 'apply_patch', category: 'filesystem' }];
    assert.equal(decideOutputType('apply_patch', cat, { changed: true }), 'diff');
    assert.equal(decideOutputType('apply_patch', cat, { changed: false }), 'empty');
    assert.equal(decideOutputType('apply_patch', cat, { fileList: true }), 'file_list');
    assert.equal(decideOutputType('apply_patch', cat), 'text');
  });

  it('§5.3.3-2 fallback text: a tool not in the catalog, no catalog, or a category without a default', () => {
    assert.equal(decideOutputType('Read', undefined), 'text');
    assert.equal(decideOutputType('Read', []), 'text');
    assert.equal(decideOutputType('Read', [{ name: 'Read' }]), 'text');
    for (const category of ['mcp', 'custom', 'planning'] as const) assert.equal(decideOutputType('t', [{ name: 't', category }]), 'text', category);
    assert.equal(categoryDefault(undefined, 'Read'), undefined);
  });
});

describe('protocol/outputType: allowedOutputTypes', () => {
  it('§5.3.3 the catalog declaration is the only allowed value', () => {
    assert.deepEqual(allowedOutputTypes('Bash', { name: 'Bash', category: 'shell', output_type: 'web_content' }), { types: ['web_content'], basis: 'catalog' });
  });

  it('§5.3.3 single defaults are binding; alternatives are a set', () => {
    assert.deepEqual(allowedOutputTypes('Bash', { name: 'Bash', category: 'shell' }), { types: ['text'], basis: 'category' });
    assert.deepEqual(allowedOutputTypes('Read', { name: 'Read', category: 'filesystem' }), { types: ['file_content'], basis: 'category' });
    const edit = allowedOutputTypes('Edit', { name: 'Edit', category: 'filesystem' });
    assert.equal(edit.basis, 'category_alternatives');
    assert.deepEqual([...edit.types].sort(), ['diff', 'empty']);
    assert.deepEqual([...allowedOutputTypes('Grep', { name: 'Grep', category: 'search' }).types].sort(), ['file_list', 'text']);
  });

  it('§5.3.3 Appendix A.2: WebSearch (category search) may also be web_content', () => {
    assert.ok(allowedOutputTypes('WebSearch', { name: 'WebSearch', category: 'search' }).types.includes('web_content'));
  });

  it('§5.3.3 no declaration and no default: only the text fallback', () => {
    assert.deepEqual(allowedOutputTypes('x', { name: 'x', category: 'mcp' }), { types: ['text'], basis: 'fallback' });
    assert.deepEqual(allowedOutputTypes('x', undefined), { types: ['text'], basis: 'fallback' });
  });

  it('§5.3.3 whatever the hints, decideOutputType returns a value allowedOutputTypes allows (property)', () => {
    const names = fc.constantFrom('Read', 'Write', 'Edit', 'Glob', 'LS', 'Grep', 'WebSearch', 'Bash', 'Task', 'NotebookEdit', 'custom_tool');
    const entry = fc.record(
      { category: fc.option(fc.constantFrom(...ToolCategory.options), { nil: undefined }), output_type: fc.option(fc.constantFrom(...OutputType.options), { nil: undefined }) },
      { requiredKeys: [] },
    );
    const hints = fc.record({ changed: fc.option(fc.boolean(), { nil: undefined }), fileList: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(names, entry, hints, (name, e, h) => {
        const tool: CatalogEntryLike = { name, ...e };
        const decided = decideOutputType(name, [tool], h);
        assert.ok(allowedOutputTypes(name, tool).types.includes(decided), `${JSON.stringify(tool)} ${JSON.stringify(h)} -> ${decided}`);
      }),
      { numRuns: 500 },
    );
  });
});
