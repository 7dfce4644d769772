// The prompt history ↑ recalls lives in the view's state, which composerDraft.ts saves whole on
// every keystroke of a draft: its size is paid per keystroke. Bounded in prompts and characters;
// kept prompts are whole (decision 694). The store here is the view's state store alone (the one
// part saveRecall touches), a plain object standing in for the webview's getState/setState.
import { strict as assert } from 'node:assert';
import type { PromptPart } from '../../../src/protocol/fileReference';
import type { ChatStore } from '../../../webview-ui/src/state/store';
import { loadRecall, MAX_RECALL, MAX_RECALL_CHARS, saveRecall } from '../../../webview-ui/src/view/promptRecall';

function stateStore(): ChatStore {
  let state: unknown = { drafts: [{ session: 's', parts: [{ kind: 'text', text: 'kept' }] }] };
  return { transport: { getState: () => state, setState: (s: unknown) => (state = s) } } as unknown as ChatStore;
}
const text = (s: string): PromptPart[] => [{ kind: 'text', text: s }];
const send = (store: ChatStore, parts: PromptPart[]) => saveRecall(store, loadRecall(store), parts);
const chars = (list: PromptPart[][]) => list.flat().reduce((n, p) => n + (p.kind === 'text' ? p.text.length : p.path.length), 0);

describe('webview: the prompt history is bounded (decision 694)', () => {
  it('keeps the newest MAX_RECALL prompts, newest first, each once', () => {
    const store = stateStore();
    for (let i = 0; i < MAX_RECALL + 10; i++) send(store, text(`prompt ${i}`));
    send(store, text('prompt 55'));
    const list = loadRecall(store);
    assert.equal(list.length, MAX_RECALL);
    assert.deepEqual(list[0], text('prompt 55'));
    assert.deepEqual(list[1], text(`prompt ${MAX_RECALL + 9}`));
    assert.equal(list.filter((p) => JSON.stringify(p) === JSON.stringify(text('prompt 55'))).length, 1);
    assert.deepEqual((store.transport.getState() as { drafts: unknown }).drafts, [{ session: 's', parts: [{ kind: 'text', text: 'kept' }] }], 'the rest of the state stays');
  });

  it('keeps the newest prompts that fit MAX_RECALL_CHARS together, each whole; a hundred pasted megabyte logs keep the state small', () => {
    const store = stateStore();
    const part = Math.floor(MAX_RECALL_CHARS / 3.5);
    for (let i = 0; i < 5; i++) send(store, text(`${i}`.repeat(part)));
    const list = loadRecall(store);
    assert.equal(list.length, 3, 'three fit, the fourth would not');
    assert.deepEqual(list.map((p) => (p[0] as { text: string }).text[0]), ['4', '3', '2']);
    assert.ok(list.every((p) => (p[0] as { text: string }).text.length === part), 'each kept whole');
    for (let i = 0; i < 100; i++) send(store, [{ kind: 'file', path: `src/f${i}.ts`, display_path: `src/f${i}.ts` }, ...text('x'.repeat(1_000_000))]);
    assert.ok(JSON.stringify(store.transport.getState()).length < MAX_RECALL_CHARS + 10_000, 'the state stays within the budget');
  });

  it('a prompt longer than the budget on its own is not kept, and the older ones stay', () => {
    const store = stateStore();
    send(store, text('older one'));
    send(store, text('older two'));
    send(store, text('y'.repeat(MAX_RECALL_CHARS + 1)));
    assert.deepEqual(loadRecall(store), [text('older two'), text('older one')]);
    assert.ok(chars(loadRecall(store)) <= MAX_RECALL_CHARS);
  });
});
