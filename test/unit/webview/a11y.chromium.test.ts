// Issue 15 "Accessible" in real Chromium on the fixture page: axe-core (@axe-core/playwright, WCAG
// 2.x A/AA rules) over the chat with a transcript of every block type (text, thinking, tool cards of
// every output type, diffs, a Bash stream, a plan, todos, errors, a compaction, a file transfer and
// pending questions including a permission prompt) in VS Code's four default themes and the
// browser master's palette: no serious or critical violation. Then the keyboard: every control is
// reached by Tab and shows the focusBorder ring; the permission card is focusable and its options are
// buttons that Enter operates; the live regions; prefers-reduced-motion.
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { feed, pageErrors, rendered, RESULTS_DIR, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { GATE_OPTIONS, SESSION, TURN, clientCaps } from '../../browser/streams';
import { applyTheme } from '../../browser/themes/contrast';
import { everyKindStream } from '../../browser/themes/everyKindStream';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { AXE_TAGS, blocking, describeViolations } from '../../support/axe';

interface ThemeFile {
  themes: Record<string, { bodyClass: string; vars: Record<string, string> }>;
}
const THEMES = (JSON.parse(readFileSync(join(__dirname, '../../browser/themes/vscode-themes.json'), 'utf8')) as ThemeFile).themes;

/** Every block type of the transcript, by the class its view draws. */
const BLOCKS = ['.text-block', '.thinking-block', '.tool-card', '.diff-line', '.stream-output', '.plan-block', '.todo-list', '.error-block', '.compaction-block', '.file-transfer', '.interaction.type-PERMISSION', '.interaction.type-YN', '.subagent', '.prompt-block'];

async function everyBlockPage(h: Harness, theme?: { bodyClass: string; vars: Record<string, string> }): Promise<Page> {
  const page = await h.open({ width: 520, height: 4000 });
  if (theme) await applyTheme(page, theme);
  await feed(page, SESSION, everyKindStream(), true);
  for (const sel of BLOCKS) assert.ok((await page.locator(sel).count()) > 0, `a ${sel} is on the page`);
  return page;
}

describe('webview in Chromium: accessible chat (issue 15 "Accessible", WCAG 2.x; decisions 390, 391)', function () {
  this.timeout(120_000);
  let h: Harness;
  const report: Record<string, unknown> = {};
  before(async () => {
    mkdirSync(RESULTS_DIR, { recursive: true });
    h = await startHarness();
  });
  after(async () => {
    writeFileSync(join(RESULTS_DIR, 'axe-fixture.json'), JSON.stringify(report, null, 1));
    await h?.close();
  });

  for (const name of [...Object.keys(THEMES), 'Browser master']) {
    it(`axe-core over a turn with every block type, ${name}: 0 serious or critical violations`, async () => {
      const page = await everyBlockPage(h, THEMES[name]);
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
      // Decision 524: the find bar open, with a count, is checked too.
      await page.keyboard.press('Control+f');
      await page.keyboard.type('the');
      await page.locator('.find-count[data-known="true"]').waitFor({ timeout: 15_000 });
      const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
      report[name] = { passes: result.passes.length, violations: result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })) };
      assert.ok(result.passes.length > 20, `axe ran its rules (${result.passes.length} passed)`);
      assert.deepEqual(describeViolations(blocking(result.violations)), [], name);
      assert.deepEqual(pageErrors(page), []);
    });
  }

  it('axe-core over an empty session\'s first-run hint with the agents that cannot run opened (decision 611), every theme: 0 serious or critical violations', async () => {
    for (const name of [...Object.keys(THEMES), 'Browser master']) {
      const page = await h.open({ width: 520, height: 1200 });
      if (THEMES[name]) await applyTheme(page, THEMES[name]);
      await page.evaluate(() => {
        const w = window as unknown as { rawpFake: { host(m: unknown): void } };
        w.rawpFake.host({ kind: 'agent.list', payload: { selected: 'builtin', agents: [{ id: 'builtin', name: 'Built-in (offline)', available: true }, { id: 'claude-code', name: 'Claude Code', available: false, unavailable_reason: '`claude` not found on PATH; install it with `npm i -g @anthropic-ai/claude-code` or set rawp.agents.claude.path' }] } });
      });
      await feed(page, SESSION, [clientCaps(streamBuilder(SESSION, Date.now()))], true);
      await page.locator('.first-run-missing summary').click();
      await page.locator('.first-run-missing li code').first().waitFor();
      const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).include('.first-run-hint').analyze();
      assert.ok(result.passes.length > 5, `${name}: axe ran its rules (${result.passes.length} passed)`);
      assert.deepEqual(describeViolations(blocking(result.violations)), [], name);
      await page.close();
    }
  });

  it('every control is reached by Tab, in order, and shows the focusBorder ring (WCAG 2.1.1, 2.4.7)', async () => {
    const page = await everyBlockPage(h, THEMES['Dark 2026']);
    // What should be reachable: every enabled native control and every tabindex ≥ 0 element that
    // is rendered; a radio group is one stop (its checked radio, or its first).
    const expected: string[] = await page.evaluate(() => {
      const sel = 'button:not(:disabled), a[href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), summary, [contenteditable="true"], [tabindex]:not([tabindex="-1"])';
      const out: string[] = [];
      const groups = new Set<string>();
      let n = 0;
      for (const el of document.querySelectorAll<HTMLElement>(sel)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest('.sr-only')) continue;
        if (el instanceof HTMLInputElement && el.type === 'radio') {
          if (groups.has(el.name)) continue;
          groups.add(el.name);
          for (const radio of document.querySelectorAll<HTMLElement>(`input[type=radio][name="${el.name}"]`)) radio.dataset.a11yId = `radio:${el.name}`;
          out.push(`radio:${el.name}`);
          continue;
        }
        el.dataset.a11yId = String(n);
        out.push(String(n++));
      }
      return out;
    });
    assert.ok(expected.length > 40, `${expected.length} controls`);
    const focusColour = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.color = getComputedStyle(document.body).getPropertyValue('--vscode-focusBorder');
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached: string[] = [];
    const noRing: string[] = [];
    for (let i = 0; i < expected.length + 20 && reached.length < expected.length; i++) {
      await page.keyboard.press('Tab');
      const got = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return undefined;
        // The composer draws its ring on its box.
        const ringOn = el.isContentEditable ? (el.closest('.composer-box') as HTMLElement) : el;
        const s = getComputedStyle(ringOn);
        return { id: el.dataset.a11yId ?? `? ${el.tagName.toLowerCase()}.${el.className}`, ring: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 ? s.outlineColor : 'none', what: `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"` };
      });
      if (!got) continue;
      if (!reached.includes(got.id)) reached.push(got.id);
      if (got.ring !== focusColour) noRing.push(`${got.what}: ${got.ring}`);
    }
    assert.deepEqual(expected.filter((id) => !reached.includes(id)), [], 'every control reached by Tab');
    assert.deepEqual(reached.filter((id) => id.startsWith('?')), [], 'nothing unexpected takes focus');
    assert.deepEqual(noRing, [], `every focused control shows a ring in focusBorder (${focusColour})`);
  });

  it('§4.3 the permission card is focusable and named; its options are buttons that Enter operates (WCAG 4.1.2)', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    const T = { turn_id: TURN };
    await feed(page, SESSION, [
      clientCaps(b),
      b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
      b.make('agent.interaction.request', { interaction_id: 'i-write', interaction_type: 'PERMISSION', question_text: 'Allow Write notes.md?', timeout_sec: 300, options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: 'Write', affected_paths: ['notes.md'] } }, T),
    ], true);
    const card = page.getByRole('group', { name: 'Permission request: Allow Write notes.md?' });
    assert.equal(await card.getAttribute('tabindex'), '0', 'the live card is a tab stop');
    await card.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('interaction')), true);
    const buttons = card.getByRole('button');
    assert.deepEqual(await buttons.evaluateAll((els) => els.map((e) => `${e.tagName}:${(e as HTMLButtonElement).type}`)), ['BUTTON:button', 'BUTTON:button', 'BUTTON:button', 'BUTTON:button']);
    await page.keyboard.press('Tab');
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /^Allow once/);
    await page.keyboard.press('Enter');
    await rendered(page);
    const answers = await waitForSent(page, 'control.interaction.response', 1);
    assert.deepEqual(answers.map((f) => f.payload.selected_value), ['allow_once']);
  });

  for (const name of ['Default High Contrast Light', 'Default High Contrast']) {
    it(`${name}: added and removed diff lines carry an edge in the theme's diff border colours, not only their +/- sign`, async () => {
      const page = await everyBlockPage(h, THEMES[name]);
      const edge = (kind: string) => page.locator(`.diff-line.${kind} > :first-child`).first().evaluate((el) => getComputedStyle(el).boxShadow);
      const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      assert.match(await edge('add'), new RegExp(`^${rgb(THEMES[name].vars['--vscode-diffEditor-insertedTextBorder']).replace(/[()]/g, '\\$&')} 4px 0px 0px 0px inset$`));
      assert.match(await edge('del'), new RegExp(`^${rgb(THEMES[name].vars['--vscode-diffEditor-removedTextBorder']).replace(/[()]/g, '\\$&')} 2px 0px 0px 0px inset$`));
    });
  }

  it('live regions: a streamed answer is told once when it completes (polite), a permission request at once (assertive), then the turn end', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    const T = { turn_id: TURN };
    const polite = page.locator('[data-live="polite"]');
    const assertive = page.locator('[data-live="assertive"]');
    assert.equal(await polite.getAttribute('aria-live'), 'polite');
    assert.equal(await assertive.getAttribute('aria-live'), 'assertive');
    assert.equal(await page.locator('[role=log]').getAttribute('aria-live'), 'off', 'the transcript itself is not read token by token');
    await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)], true);
    await feed(page, SESSION, [b.make('agent.text.delta', { content_index: 0, text: 'Reading the ' }, T)]);
    await feed(page, SESSION, [b.make('agent.text.delta', { content_index: 0, text: 'file now.' }, T)]);
    assert.equal((await polite.innerText()).trim(), '', 'nothing while it streams');
    await feed(page, SESSION, [b.make('agent.text.done', { content_index: 0 }, T)]);
    assert.equal((await polite.innerText()).trim(), 'Agent: Reading the file now.');
    await feed(page, SESSION, [b.make('agent.interaction.request', { interaction_id: 'i-1', interaction_type: 'PERMISSION', question_text: 'Allow Edit a.ts?', timeout_sec: 300, options: GATE_OPTIONS, default_value: 'reject' }, T)]);
    assert.match(await assertive.innerText(), /^Permission needed: Allow Edit a\.ts\?/);
    await feed(page, SESSION, [b.make('control.interaction.response', { interaction_id: 'i-1', selected_value: 'allow_once' }, T)]);
    assert.equal((await assertive.innerText()).trim(), '', 'an answered question is no longer in the assertive region');
    await feed(page, SESSION, [b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn' }, T)]);
    assert.equal((await polite.innerText()).trim(), 'The agent finished.');
    // The next turn: what the region said is over, and it no longer holds it (the trial of 2026-12-06).
    await feed(page, SESSION, [b.make('session.turn.start', { turn_id: 'turn-2', turn_index: 1 }, { turn_id: 'turn-2' })]);
    assert.equal((await polite.innerText()).trim(), '', 'no "The agent finished." during the next turn');
  });

  it('prefers-reduced-motion: the spinning icons stop; without it they spin (WCAG 2.3.3)', async () => {
    const page = await h.open({ height: 4000 });
    await feed(page, SESSION, everyKindStream(), true);
    const spinner = page.locator('.codicon-modifier-spin').first();
    await spinner.waitFor({ state: 'attached' });
    const duration = () => spinner.evaluate((el) => parseFloat(getComputedStyle(el).animationDuration));
    assert.ok((await duration()) > 0, 'spins normally');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    assert.equal(await duration(), 0, 'stopped under reduced motion');
  });
});
