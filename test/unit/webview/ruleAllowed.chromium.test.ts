// Decision 691 in real Chromium: a file write that a saved rule let run without a question says so
// in its card, in plain words naming the rule, beside the file's name and its diff (the new file's
// hunk header as git writes it, decision 690); a write the user answered has no such note. English
// and Korean.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import type { Frame, PayloadOf } from '../../../src/protocol/frameTypes';
import { feed, pageErrors, startHarness, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const CREATED = {
  file_path: 'src/new.ts',
  created: true,
  unified_diff: '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+export const a = 1;\n+export const b = 2;\n',
  hunks: [{ old_start: 1, old_lines: 0, new_start: 1, new_lines: 2, lines: ['+export const a = 1;', '+export const b = 2;'] }],
  additions: 2,
  deletions: 0,
};

function writes(rule: PayloadOf<'tool.invoke.result'>['allowed_by_rule']): Frame[] {
  const b = streamBuilder(SESSION);
  const T = { turn_id: TURN };
  return [
    clientCaps(b),
    b.make('control.prompt.request', { prompt_text: 'Create src/new.ts' }),
    b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
    b.make('tool.invoke.request', { invocation_id: 'inv-w', tool_name: 'Write', input: { file_path: 'src/new.ts', content: 'export const a = 1;\nexport const b = 2;\n' } }, T),
    b.make('tool.invoke.result', { invocation_id: 'inv-w', tool_name: 'Write', status: 'success', output: CREATED, output_type: 'diff', duration_ms: 4, ...(rule ? { allowed_by_rule: rule } : {}) }, T),
    b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn' }, T),
  ];
}

const ALWAYS = { rule_id: 'r1', lifetime: 'always' as const, tool_name: 'Write', path_glob: 'src/**' };

describe('webview in Chromium: a call a saved rule allowed says so (decision 691)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  async function open(frames: Frame[], locale = 'en-US'): Promise<Page> {
    const page = await h.open({ width: 300, height: 700, locale });
    await feed(page, SESSION, frames, true);
    await page.waitForSelector('.tool-card[data-invocation="inv-w"] .hunk');
    return page;
  }

  it('the card names the rule in plain words, next to the file name and the diff; the card’s description is that note', async () => {
    const page = await open(writes(ALWAYS));
    const card = page.locator('.tool-card[data-invocation="inv-w"]');
    const note = card.locator('.tool-rule-note');
    assert.equal((await note.innerText()).trim(), 'Ran without asking: your saved rule allows Write on src/**.');
    assert.ok(await note.isVisible());
    assert.equal(await card.locator('.tool-summary').innerText(), 'src/new.ts', 'the file name, as for an asked write');
    assert.equal((await card.locator('.hunk-header').first().innerText()).trim(), '@@ -0,0 +1,2 @@', 'the diff, with git’s header for a new file');
    assert.ok(await card.locator('.diff-line.add').first().isVisible());
    assert.equal(await card.getAttribute('aria-describedby'), await note.getAttribute('id'));
    assert.deepEqual(pageErrors(page), []);
  });

  it('a rule made for this session says so; a write the user answered (no rule) has no note', async () => {
    const page = await open(writes({ rule_id: 'r2', lifetime: 'session', tool_name: 'Write' }));
    assert.equal((await page.locator('.tool-rule-note').innerText()).trim(), 'Ran without asking: the rule you made for this session allows every Write call.');
    const asked = await open(writes(undefined));
    assert.equal(await asked.locator('.tool-rule-note').count(), 0);
    assert.equal(await asked.locator('.tool-card[data-invocation="inv-w"]').getAttribute('aria-describedby'), null);
  });

  it('in Korean', async () => {
    const page = await open(writes(ALWAYS), 'ko-KR');
    assert.equal((await page.locator('.tool-rule-note').innerText()).trim(), '묻지 않고 실행함: 저장된 규칙이 Write (src/** 아래 파일)을(를) 허용합니다.');
  });
});
