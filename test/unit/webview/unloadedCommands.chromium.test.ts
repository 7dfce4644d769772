// Decision 721 in real Chromium: when command files did not load, the / picker's last row says so
// ("23 command files could not be loaded"), lists each file and why (20, then "and 3 more") as the
// row's description and, while it is the active row, on screen; the arrows reach it, a screen
// reader gets it as the prompt box's active descendant, it chooses nothing (Tab), and Enter on it
// sends the text as typed, as with no row. In Korean under a Korean browser. Readable in VS Code's
// six default themes; axe finds nothing serious with it open.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { RESULTS_DIR, feed, hostSays, pageErrors, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { SESSION, clientCaps } from '../../browser/streams';
import { applyTheme, measureContrast } from '../../browser/themes/contrast';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { AXE_TAGS, blocking, describeViolations } from '../../support/axe';

const UNLOADED = {
  total: 23,
  files: [
    { path: '.rawp/commands/deploy.md', reason: 'frontmatter_invalid', message: 'its frontmatter is not valid YAML (Flow sequence … at line 2 of the file, column 23)', detail: 'Flow sequence … at line 2 of the file, column 23' },
    { path: '~/.claude/commands/huge.md', reason: 'file_too_big', message: 'the file is larger than 256 KiB' },
    { path: '.codex/commands/later.md', reason: 'x_newer_reason', message: 'a reason this view does not know yet' },
    ...Array.from({ length: 17 }, (_, i) => ({ path: `.claude/commands/out${i}.md`, reason: 'link_out', message: 'it is a symlink that leads out of the workspace' })),
  ],
};

interface ThemeFile {
  themes: Record<string, { bodyClass: string; vars: Record<string, string> }>;
}
const THEMES = (JSON.parse(readFileSync(join(__dirname, '../../browser/themes/vscode-themes.json'), 'utf8')) as ThemeFile).themes;

describe('webview in Chromium: the / picker says which command files did not load (decision 721)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  async function ready(options: { locale?: string; unloaded?: typeof UNLOADED | undefined } = {}): Promise<Page> {
    const page = await h.open({ width: 420, height: 800, ...(options.locale ? { locale: options.locale } : {}) });
    const b = streamBuilder(SESSION);
    const payload = {
      commands: [
        { name: 'compact', description: 'Compact the conversation context' },
        { name: 'review', description: 'Review a pull request', parameters: [{ name: 'pr', type: 'number' as const, required: true }] },
      ],
      ...('unloaded' in options ? (options.unloaded ? { unloaded: options.unloaded } : {}) : { unloaded: UNLOADED }),
    };
    await feed(page, SESSION, [clientCaps(b), b.make('agent.commands.publish', payload)], true);
    await page.locator('.composer .editor').click();
    return page;
  }

  const row = (page: Page) => page.locator('[role=listbox] [role=option].picker-unloaded');
  const activeId = (page: Page) => page.locator('.composer .editor').getAttribute('aria-activedescendant');
  const description = (page: Page) => row(page).evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');

  it('the last row says how many did not load; the arrows reach it (the active descendant), its list shows and is its description; PageDown pages through the list; Tab takes nothing; axe: 0 serious or critical', async () => {
    const page = await ready();
    await page.keyboard.type('/');
    const options = page.locator('[role=listbox] [role=option]');
    await options.first().waitFor();
    assert.equal(await options.count(), 3, 'two commands and the row');
    assert.equal(await row(page).innerText(), '23 command files could not be loaded', 'one line while another row is active');
    assert.equal(await row(page).getAttribute('aria-disabled'), 'true');
    assert.equal(await page.locator('.unloaded-files').isVisible(), false);
    const why = await description(page);
    assert.match(why, /\.rawp\/commands\/deploy\.md — its frontmatter is not valid YAML \(Flow sequence … at line 2 of the file, column 23\)/, 'heard even before it is shown');

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const id = await row(page).getAttribute('id');
    assert.equal(await activeId(page), id, 'the prompt box names the row as its active descendant');
    assert.equal(await row(page).getAttribute('aria-selected'), 'true');
    assert.equal(await page.locator('.unloaded-files').isVisible(), true);
    const lines = await page.locator('.unloaded-file').allInnerTexts();
    assert.equal(lines.length, 20);
    assert.equal(lines[0], '.rawp/commands/deploy.md — its frontmatter is not valid YAML (Flow sequence … at line 2 of the file, column 23)');
    assert.equal(lines[1], '~/.claude/commands/huge.md — the file is larger than 256 KiB');
    assert.equal(lines[2], '.codex/commands/later.md — a reason this view does not know yet', "an unknown reason: the host's words");
    assert.equal(await page.locator('.unloaded-more').innerText(), 'and 3 more');
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-slash-unloaded.png') });

    const scrolled = () => page.locator('.unloaded-files').evaluate((el) => el.scrollTop);
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => (document.querySelector('.unloaded-files')?.scrollTop ?? 0) > 0);
    assert.equal(await activeId(page), id, 'PageDown on the row pages through its list and stays on it');
    await page.keyboard.press('PageUp');
    await page.waitForFunction(() => document.querySelector('.unloaded-files')?.scrollTop === 0);
    assert.equal(await scrolled(), 0);
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('.editor').innerText(), '/', 'Tab on the row takes nothing');
    assert.equal(await activeId(page), id, 'and the picker stays on it');
    const axe = await new AxeBuilder({ page }).withTags(AXE_TAGS).include('.composer').analyze();
    assert.deepEqual(describeViolations(blocking(axe.violations)), []);
    await page.keyboard.press('ArrowDown');
    assert.notEqual(await activeId(page), id, 'ArrowDown goes round to the first command');
    assert.equal(await page.locator('.unloaded-files').isVisible(), false);
    await row(page).click({ force: true }); // aria-disabled: playwright's click would wait for it to be enabled
    assert.equal(await page.locator('.unloaded-files').isVisible(), true, 'a click opens the list too');
    assert.equal(await page.locator('.editor').innerText(), '/', 'and chooses nothing');
    assert.deepEqual(pageErrors(page), []);
  });

  it('"/deploy" that nothing matches: "No matching command" and the row, active, its list open; Enter sends the text as typed (as with no row)', async () => {
    const page = await ready();
    await page.keyboard.type('/deploy');
    await row(page).waitFor();
    assert.equal(await page.locator('.picker-frame [role=status]').innerText(), 'No matching command');
    assert.equal(await page.locator('[role=listbox] [role=option]').count(), 1);
    assert.equal(await activeId(page), await row(page).getAttribute('id'));
    assert.equal(await page.locator('.unloaded-file').first().innerText(), '.rawp/commands/deploy.md — its frontmatter is not valid YAML (Flow sequence … at line 2 of the file, column 23)');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.deepEqual({ text: prompt.payload.prompt_text, type: prompt.payload.input_type }, { text: '/deploy', type: 'slash_command' });
  });

  it('no row when every file loaded', async () => {
    const page = await ready({ unloaded: undefined });
    await page.keyboard.type('/');
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    assert.equal(await page.locator('[role=listbox] [role=option]').count(), 2);
    assert.equal(await row(page).count(), 0);
  });

  it('§12.1.1 /help ends with the count and where to see the files (decision 727); not when every file loaded', async () => {
    const help = { kind: 'notice', payload: { level: 'info', message: '/compact — Compact the conversation context', words: { id: 'help' } } };
    const banner = async (page: Page) => {
      await hostSays(page, [help]);
      return (await page.locator('.banner.info').allInnerTexts()).join('\n');
    };
    const page = await ready();
    const lines = (await banner(page)).split('\n');
    assert.ok(lines.includes('23 command files could not be loaded — see the last row of the / menu'), lines.join(' | '));
    assert.ok(lines.indexOf('/compact — Compact the conversation context') < lines.indexOf('23 command files could not be loaded — see the last row of the / menu'), 'after the commands');
    const clean = await ready({ unloaded: undefined });
    assert.doesNotMatch(await banner(clean), /could not be loaded/);
    assert.deepEqual(pageErrors(page), []);
  });

  it('in Korean under a Korean browser: the count, each reason, "and N more"; a reason the view does not know stays the host\'s English', async () => {
    const page = await ready({ locale: 'ko-KR' });
    await page.keyboard.type('/');
    await row(page).waitFor();
    assert.equal(await row(page).innerText(), '명령 파일 23개를 불러오지 못했습니다');
    await page.keyboard.press('ArrowUp');
    const lines = await page.locator('.unloaded-file').allInnerTexts();
    assert.equal(lines[0], '.rawp/commands/deploy.md — 프론트매터가 올바른 YAML이 아닙니다 (Flow sequence … at line 2 of the file, column 23)');
    assert.equal(lines[1], '~/.claude/commands/huge.md — 파일이 256KiB보다 큽니다');
    assert.equal(lines[2], '.codex/commands/later.md — a reason this view does not know yet');
    assert.equal(lines[3], '.claude/commands/out0.md — 작업 공간 밖을 가리키는 심볼릭 링크입니다');
    assert.equal(await page.locator('.unloaded-more').innerText(), '그 밖에 3개 더');
  });

  it('readable in VS Code\'s six default themes: every text ≥ 4.5:1 and the icon ≥ 3:1, the row active (its list open) and not', async () => {
    assert.equal(Object.keys(THEMES).length, 6);
    for (const [name, theme] of Object.entries(THEMES)) {
      const page = await ready();
      await applyTheme(page, theme);
      await page.keyboard.type('/');
      await row(page).waitFor();
      // The measurer skips what is aria-disabled (WCAG exempts inactive controls); this row is read, so it is measured as it looks.
      const measure = async () => {
        await row(page).evaluate((el) => el.removeAttribute('aria-disabled'));
        const m = (await measureContrast(page)).filter((x) => x.where.includes('picker-unloaded') || x.where.includes('unloaded-'));
        await row(page).evaluate((el) => el.setAttribute('aria-disabled', 'true'));
        return m;
      };
      await row(page).click({ force: true }); // open, not active (aria-disabled: force)
      const idle = await measure();
      await page.keyboard.press('ArrowUp'); // active
      const active = await measure();
      for (const m of [idle, active]) {
        assert.ok(m.some((x) => x.kind === 'icon') && m.filter((x) => x.kind === 'text').length >= 20, `${name}: measured ${m.length}`);
      }
      const failing = [...idle, ...active].filter((x) => x.ratio < x.required);
      assert.deepEqual(failing.map((x) => `${x.kind} ${x.ratio.toFixed(2)}:1 ${x.fg} on ${x.bg} "${x.text}" at ${x.where}`), [], name);
      await page.close();
    }
  });
});
