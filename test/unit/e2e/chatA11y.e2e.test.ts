// Issue 15 in a real VS Code (code-server 4.139 = VS Code 1.139, the packaged VSIX, the built-in
// agent), driven by real Chromium:
// - Why 1: the sample workspace sits in `.cache/` of an outer git work tree that ignores it (as
//   ./scripts/run.sh opens it); the @ picker still finds its files.
// - A conversation with every block the built-in agent draws (thinking, text, tool cards, an error
//   result, a Bash stream, a diff, todos, a subagent, a plan, a pending permission prompt), then in
//   Light 2026, Dark 2026, Light High Contrast, Dark High Contrast, Light+ and Dark+ (decision 674;
//   switched live): every text
//   of the chat ≥ 4.5:1 (large text ≥ 3:1), every icon and dot ≥ 3:1 (WCAG 1.4.3 / 1.4.11), and
//   axe-core (WCAG 2.0-2.2 A/AA) with 0 serious or critical violations; a screenshot per theme.
// - Why 3: stopping the turn (Stop; Esc goes to the question first) during the pending permission retires it at once: no Allow/Reject, no countdown, no
//   UNKNOWN_INTERACTION, and nothing written.
// Artifacts: test-results/code-server-a11y/ (screenshots, measurements).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, FrameLocator } from 'playwright-core';
import { blocking, describeViolations } from '../../support/axe';
import { axeChat, chatFrameHandle, composer, idle, measureWholeChat, sendPrompt, setColorTheme, shootSideBar, THEME_CLASSES, type ThemeName } from './chatDriver';
import { buildVsix, openChatView, REPO } from './codeServer';
import { useWorkbench } from './workbench';

const OUT = join(REPO, 'test-results', 'code-server-a11y');

function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** Turns of the chat's transcript that have ended (read from the webview's own store). */
function endedTurns(frame: Frame): Promise<number> {
  return frame.evaluate(() => (window as unknown as { rawpStore: { transcript: { timeline: Array<{ kind: string; open?: boolean }> } } }).rawpStore.transcript.timeline.filter((e) => e.kind === 'turn' && e.open === false).length);
}

async function waitEnded(frame: Frame, n: number, timeout = 60_000): Promise<void> {
  await frame.waitForFunction(
    (want) => (window as unknown as { rawpStore: { transcript: { timeline: Array<{ kind: string; open?: boolean }> } } }).rawpStore.transcript.timeline.filter((e) => e.kind === 'turn' && e.open === false).length >= want,
    n,
    { timeout, polling: 200 },
  );
}

describe('e2e (code-server): the chat is accessible and readable in every default theme; issue 15 Why 1 and Why 3', function () {
  this.timeout(600_000);
  let chat: FrameLocator;
  let frame: Frame;
  const summary: Record<string, unknown> = {};
  // Registered before the workbench's own: runs while the page is still open.
  after(async () => {
    writeFileSync(join(OUT, 'summary.json'), JSON.stringify(summary, null, 1));
    if (w.page) await w.page.screenshot({ path: join(OUT, 'zz-final.png') }).catch(() => undefined);
  });
  const w = useWorkbench({
    name: 'rawp-outer-repo',
    // Like ./scripts/run.sh: the sample workspace in .cache/ of a git work tree that ignores .cache/.
    workspace: (outer) => {
      mkdirSync(OUT, { recursive: true });
      execFileSync('git', ['init', '-q', outer]);
      writeFileSync(join(outer, '.gitignore'), '.cache/\n');
      writeFileSync(join(outer, 'README.md'), '# outer project\n');
      execFileSync('git', ['-C', outer, 'add', '.']);
      execFileSync('git', ['-C', outer, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init']);
      const workspace = join(outer, '.cache', 'sample-workspace');
      cpSync(join(REPO, 'media/sample-workspace'), workspace, { recursive: true });
      return workspace;
    },
    start: () => ({ vsixes: [buildVsix(join(mkdtempSync(join(tmpdir(), 'rawp-a11y-vsix-')), 'rawp-vscode.vsix'))], settings: { 'workbench.colorTheme': 'Light 2026' } }),
  });

  it('Why 1: the @ picker finds files of a workspace that an outer repository ignores (git ls-files lists none there)', async () => {
    // The scenario holds: git sees nothing in the folder.
    assert.equal(execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: w.workspace, encoding: 'utf8' }).trim(), '');
    try {
      chat = await openChatView(w.page);
      await idle(chat).waitFor({ timeout: 60_000 });
      frame = await chatFrameHandle(chat);
    } catch (e) {
      w.fail(e);
    }
    await composer(chat).click();
    await w.page.keyboard.type('read @greet');
    const option = chat.locator('[role="listbox"][aria-label="Files"] [role="option"]', { hasText: 'greeting.ts' });
    await option.first().waitFor({ timeout: 30_000 });
    await w.page.screenshot({ path: join(OUT, '01-at-picker-in-ignored-folder.png') });
    await w.page.keyboard.press('Enter');
    await w.page.keyboard.press('Enter');
    await chat.locator('article.tool-card.status-success[aria-label^="Tool Read"]').first().waitFor({ timeout: 30_000 });
    await waitEnded(frame, 1);
    // A second query, for a file outside src/.
    await composer(chat).click();
    await w.page.keyboard.type('@notes');
    await chat.locator('[role="listbox"][aria-label="Files"] [role="option"]', { hasText: 'notes.txt' }).first().waitFor({ timeout: 30_000 });
    await w.page.keyboard.press('Escape');
    await w.page.keyboard.press('Control+A');
    await w.page.keyboard.press('Backspace');
  });

  it('a conversation with every block the built-in agent draws, and a permission prompt left pending (announced assertively)', async () => {
    await sendPrompt(w.page, chat, ['todo: check the greeting; ship it', 'read src/missing.ts', 'find Hello', 'run `echo out; echo err 1>&2`', 'delegate: ls src']);
    const ask = chat.locator('section.interaction.status-pending[aria-label^="Permission request"]');
    await ask.first().waitFor({ timeout: 60_000 });
    await ask.first().getByRole('button', { name: /Allow once/ }).click();
    await waitEnded(frame, 2);
    await sendPrompt(w.page, chat, ['replace `Hello` with `Hi` in src/greeting.ts']);
    await ask.first().waitFor({ timeout: 60_000 });
    await ask.first().getByRole('button', { name: /Allow once/ }).click();
    await waitEnded(frame, 3);
    await sendPrompt(w.page, chat, ['plan: read src/math.ts']);
    const approve = chat.locator('.plan-block').last().getByRole('button', { name: /^Approve/ });
    await approve.waitFor({ timeout: 60_000 });
    await approve.click();
    await waitEnded(frame, 4);
    await sendPrompt(w.page, chat, ['write src/farewell.ts: export const bye = "Bye";']);
    await ask.first().waitFor({ timeout: 60_000 });
    await idle(chat).waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    // The live region is filled after the card renders: wait (bounded) for its words, then check them.
    await chat.locator('[data-live="assertive"]', { hasText: /Permission needed: .*farewell\.ts/ }).waitFor({ state: 'attached', timeout: 15_000 }).catch(() => undefined);
    assert.match(await chat.locator('[data-live="assertive"]').innerText(), /Permission needed: .*farewell\.ts/);
    // What is in the transcript (the rows are virtualized: ask the store, not the DOM).
    const kinds = await frame.evaluate(() => {
      const t = (window as unknown as { rawpStore: { transcript: { timeline: Array<{ kind: string; blocks?: Array<{ kind: string; result?: { status: string; outputType?: string } }> }> } } }).rawpStore.transcript;
      const out = new Set<string>();
      for (const e of t.timeline) {
        out.add(e.kind);
        for (const b of e.blocks ?? []) {
          out.add(b.kind);
          if (b.result) out.add(`tool:${b.result.status}:${b.result.outputType ?? ''}`);
        }
      }
      return [...out].sort();
    });
    summary.blockKinds = kinds;
    for (const k of ['prompt', 'thinking', 'text', 'plan', 'tool', 'interaction', 'tool:success:diff', 'tool:success:structured', 'tool:success:file_content']) assert.ok(kinds.includes(k), `the transcript has ${k} (has ${kinds.join(', ')})`);
    assert.ok(kinds.some((k) => k.startsWith('tool:error:')), 'a failed tool (read of a missing file)');
  });

  it('keyboard: Shift+Tab from the composer reaches the pending permission card (a named group) and its Allow button, each with the focusBorder ring', async () => {
    await composer(chat).click();
    const ring = await frame.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.color = getComputedStyle(document.body).getPropertyValue('--vscode-focusBorder');
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    const focused = () =>
      frame.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const s = el ? getComputedStyle(el) : undefined;
        return { card: el?.matches('section.interaction.status-pending') ?? false, inCard: el?.closest('section.interaction.status-pending') !== null, text: el?.textContent?.trim().slice(0, 40) ?? '', outline: s && s.outlineStyle !== 'none' ? s.outlineColor : 'none' };
      });
    const seen: string[] = [];
    let card: Awaited<ReturnType<typeof focused>> | undefined;
    for (let i = 0; i < 30 && !card; i++) {
      await w.page.keyboard.press('Shift+Tab');
      const f = await focused();
      seen.push(f.text);
      if (f.card) card = f;
    }
    assert.ok(card, `the card was reached (${seen.join(' | ')})`);
    assert.equal(card.outline, ring, 'the card shows the ring');
    // Tab goes into the card: past its "Input" details, to its first option.
    let first = await focused();
    const path: string[] = [];
    for (let i = 0; i < 4 && !/^Allow once/.test(first.text); i++) {
      await w.page.keyboard.press('Tab');
      first = await focused();
      path.push(first.text);
      assert.ok(first.inCard, `Tab stays in the card until its options (${path.join(' | ')})`);
    }
    assert.match(first.text, /^Allow once/, path.join(' | '));
    assert.equal(first.outline, ring);
  });

  for (const theme of Object.keys(THEME_CLASSES) as ThemeName[]) {
    it(`${theme} in code-server: every badge, button, chip and code span ≥ 4.5:1 (icons, dots, large text ≥ 3:1); axe: 0 serious or critical`, async () => {
      await setColorTheme(w.page, chat, theme);
      const m = await measureWholeChat(frame);
      await frame.locator('.transcript-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await w.page.screenshot({ path: join(OUT, `theme-${slug(theme)}.png`) });
      await shootSideBar(w.page, join(OUT, `theme-${slug(theme)}-chat.png`));
      writeFileSync(join(OUT, `contrast-${slug(theme)}.json`), JSON.stringify(m, null, 1));
      // Every kind the issue names was on screen and measured.
      for (const [what, re] of [['badge', /\.badge/], ['button', /button\.button/], ['chip', /\.chip/], ['code span', /> code/], ['permission button', /interaction-buttons > button/], ['icon', /codicon/]] as const) {
        assert.ok(m.some((x) => re.test(x.where) || re.test(x.text)), `${theme}: a ${what} was measured`);
      }
      const failing = m.filter((x) => x.ratio < x.required);
      const axe = await axeChat(frame);
      const worst = [...m].sort((a, b) => a.ratio / a.required - b.ratio / b.required)[0];
      summary[theme] = { measured: m.length, minText: Math.min(...m.filter((x) => x.kind === 'text').map((x) => x.ratio)), minIcon: Math.min(...m.filter((x) => x.kind !== 'text' && x.kind !== 'large-text').map((x) => x.ratio)), worst, axe: axe.violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`) };
      assert.ok(m.length > 100, `${theme}: ${m.length} measured`);
      assert.deepEqual(failing.map((x) => `${x.kind} ${x.ratio.toFixed(2)}:1 (needs ${x.required}) ${x.fg} on ${x.bg} "${x.text}" at ${x.where}`), [], theme);
      assert.deepEqual(describeViolations(blocking(axe.violations)), [], `${theme}: axe`);
    });
  }

  it('Why 3: Esc with a permission pending goes to the question (decision 605); Stop then retires it at once — no Allow/Reject, no countdown, no UNKNOWN_INTERACTION, nothing written', async () => {
    const card = chat.locator('section.interaction.type-PERMISSION').last();
    assert.ok((await card.getByRole('button').count()) >= 2, 'live before Esc');
    const ended = await endedTurns(frame);
    await composer(chat).click();
    await w.page.keyboard.press('Escape');
    // A habitual Escape does not stop the agent while it waits for an answer: focus goes to the
    // question's card, not to a button a following Enter would press (decision 649).
    await chat.locator('section.interaction.type-PERMISSION:focus').last().waitFor({ timeout: 10_000 });
    assert.ok((await card.getByRole('button').count()) >= 2, 'still live after Esc');
    await chat.locator('.composer-actions button', { hasText: 'Stop' }).click();
    await card.locator('[role="status"]', { hasText: /Cancelled/ }).waitFor({ timeout: 10_000 });
    assert.equal(await card.getByRole('button').count(), 0, 'no Allow/Reject');
    assert.equal(await card.locator('[role="timer"]').count(), 0, 'no countdown');
    await waitEnded(frame, ended + 1, 30_000);
    // Give a late refusal time to arrive: none may show.
    await w.page.waitForTimeout(2_000);
    assert.equal(await chat.locator('.error-block', { hasText: /UNKNOWN_INTERACTION/ }).count(), 0);
    const errors = await frame.evaluate(() => (window as unknown as { rawpStore: { transcript: { errors: Array<{ code: string }> } } }).rawpStore.transcript.errors.map((e) => e.code));
    assert.ok(!errors.includes('UNKNOWN_INTERACTION'), `no UNKNOWN_INTERACTION (${errors.join(', ')})`);
    assert.equal(existsSync(join(w.workspace, 'src/farewell.ts')), false, 'nothing written');
    assert.match(readFileSync(join(w.workspace, 'src/greeting.ts'), 'utf8'), /Hi, \$\{name\}/);
    await w.page.screenshot({ path: join(OUT, 'why3-after-esc.png') });
  });

  it('"RAWP Agent: Focus on Chat View" from the command palette puts the focus in the prompt box, not on the page (the keyboard trial of 2026-12-06)', async () => {
    await w.page.locator('.monaco-workbench').click({ position: { x: 900, y: 400 } });
    await w.page.keyboard.press('F1');
    const input = w.page.locator('.quick-input-widget input.input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill('>RAWP Agent: Focus on Chat View');
    await w.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Focus on Chat View' }).first().click({ timeout: 10_000 });
    await frame.waitForFunction(() => document.activeElement?.getAttribute('role') === 'textbox', undefined, { timeout: 10_000 });
  });
});
