// Issue 15 Why 5 and Why 7 end to end, with the packaged extension in a real VS Code (code-server
// 1.139) driven by Chromium: the header's labels are visible, its session row does not wrap at the
// sidebar's width and the agent's name is whole (decision 692); picking another agent for the empty session switches that session (the
// OpenAI-compatible agent against the scripted mock model on 127.0.0.1, which then answers);
// for a session with history the view offers a new session; a Read turn and a Bash turn of the
// built-in agent show their output once; Ctrl+F opens Find in chat (decision 524). Screenshots go to
// test-results/e2e/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { MockModelServer } from '../../support/mockModel/server';
import { chat as reply, installChatCompletions } from '../../support/mockModel/chatCompletions';
import { buildVsix, openChatView, REPO } from './codeServer';
import { selectWidths } from '../../support/selectWidth';
import { useWorkbench } from './workbench';

/** How often `needle` occurs in the chat's visible text. */
async function occurrences(chat: FrameLocator, needle: string): Promise<number> {
  const text = await chat.locator('main.chat').innerText();
  return text.split(needle).length - 1;
}

describe('e2e: the header and one rendering per fact in a real VS Code (issue 15 Why 5, Why 7)', function () {
  this.timeout(300_000);
  let model: MockModelServer | undefined;
  let route = '';
  before(async () => {
    model = await MockModelServer.start((s) => {
      route = installChatCompletions(s);
    });
  });
  const w = useWorkbench({
    name: 'rawp-e2e-header',
    finalShot: 'header-zz-final',
    start: () => {
      // A loopback OpenAI-compatible endpoint needs no key: a second available agent besides the
      // built-in one (its base URL is a machine-scoped setting).
      w.atEnd(() => model?.stop());
      const openai = { 'rawp.openai.baseUrl': `${model!.url}/v1`, 'rawp.openai.model': 'mock-model' };
      return { vsixes: [buildVsix(join(REPO, '.cache', 'test-rawp-vscode-chatui.vsix'))], settings: openai, machineSettings: openai };
    },
  });
  let chat: FrameLocator;
  const composer = () => chat.locator('[role="textbox"]').first();
  const idle = () => chat.locator('[role="status"][data-code="idle"]').first().waitFor({ timeout: 60_000 });
  const send = async (text: string) => {
    await composer().click();
    await w.page.keyboard.type(text);
    await w.page.keyboard.press('Enter');
  };

  it('decision 361: Session, Agent and Mode labels are visible, the session row does not wrap at the sidebar width (the shield included) and the agent\'s name is whole (decision 692)', async () => {
    try {
      chat = await openChatView(w.page);
      await idle();
      await chat.locator('#agent-select option[value="openai"]').waitFor({ state: 'attached', timeout: 60_000 });
      // The view at the default sidebar width, measured in the chat's own document.
      const width = await chat.locator('body').evaluate(() => document.documentElement.clientWidth);
      assert.ok(width >= 200 && width <= 320, `the chat is ${width} px wide (the default sidebar is about 300 px)`);
      for (const label of ['Session', 'Agent', 'Mode']) {
        const l = chat.locator('.session-bar label', { hasText: new RegExp(`^${label}$`) });
        await l.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => undefined);
        assert.ok(await l.isVisible(), `${label} label visible`);
        const b = await l.boundingBox();
        assert.ok(b && b.width > 10, `${label} label has a size`);
      }
      const m = await chat.locator('.session-bar').evaluate((bar) => {
        const b = bar.getBoundingClientRect();
        const rows = [...bar.querySelectorAll(':scope > .bar-row')].map((r) => r.getBoundingClientRect());
        const items = [...bar.querySelectorAll('.bar-row > .field > label, .bar-row select, .bar-row button')].map((el) => {
          const r = el.getBoundingClientRect();
          return { what: el.getAttribute('aria-label') ?? el.id ?? el.tagName, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        });
        return { bar: { left: b.left, right: b.right }, rows: rows.map((r) => ({ top: r.top, bottom: r.bottom })), items };
      });
      assert.equal(m.rows.length, 2);
      const selectHeight = Math.max(...m.items.filter((i) => i.what.endsWith('-select')).map((i) => i.bottom - i.top));
      assert.ok(m.rows[0].bottom - m.rows[0].top <= selectHeight + 4, `the session row is one control high (${m.rows[0].bottom - m.rows[0].top} vs ${selectHeight})`);
      // Decision 692: the agent row may put the mode below the agent, so the agent's name is whole
      // (VS Code's font cut "Built-in (offline)" to "Built-i…" here).
      assert.ok(m.rows[1].bottom - m.rows[1].top <= 2 * selectHeight + 8, `the agent row is at most two lines (${m.rows[1].bottom - m.rows[1].top} vs ${selectHeight})`);
      const agent = await chat.locator('#agent-select').evaluate(selectWidths, { onlyChosen: true, unbounded: true });
      assert.ok(agent.width >= agent.natural - 0.5, `the agent's name is whole: ${agent.width} px of ${agent.natural}`);
      for (const i of m.items) assert.ok(i.left >= m.bar.left - 0.5 && i.right <= m.bar.right + 0.5, `${i.what} inside the header: ${JSON.stringify(i)}`);
      const shield = m.items.find((i) => i.what === 'Permission rules');
      const session = m.items.find((i) => i.what === 'session-select');
      assert.ok(shield && session && Math.abs(shield.top - session.top) < 6, 'the shield is on the session row');
      assert.equal(await chat.locator('#agent-select').inputValue(), 'builtin');
      await w.shot('header-01-labels');
    } catch (e) {
      w.fail(e);
    }
  });

  it('decision 361: picking another agent for the empty session switches that session; the new agent answers', async () => {
    try {
      model!.enqueue(route, reply.text('Hello from the mock model.'));
      await chat.locator('#agent-select').selectOption('openai');
      await chat.locator('#session-select option', { hasText: /OpenAI-compatible/ }).waitFor({ state: 'attached', timeout: 60_000 });
      await idle();
      assert.equal(await chat.locator('#agent-select').inputValue(), 'openai');
      assert.equal(await chat.locator('#session-select option').count(), 1, 'the empty session was switched, not joined by a second one');
      await send('say hello');
      await chat.getByText('Hello from the mock model.').first().waitFor({ timeout: 60_000 });
      await idle();
      assert.equal(model!.requestsFor(route).length, 1, 'the prompt went to the new agent');
      await w.shot('header-02-switched');
    } catch (e) {
      w.fail(e);
    }
  });

  it('decision 361: for a session with history the agent stays, and "New session with Built-in" starts one', async () => {
    try {
      await chat.locator('#agent-select').selectOption('builtin');
      const offer = chat.locator('.agent-offer');
      await offer.waitFor({ timeout: 30_000 });
      assert.match(await offer.innerText(), /stays with OpenAI-compatible/);
      assert.equal(await chat.locator('#agent-select').inputValue(), 'openai', 'the session keeps its agent');
      await w.shot('header-03-offer');
      await offer.getByRole('button', { name: /New session with Built-in/ }).click();
      await chat.locator('#session-select option').nth(1).waitFor({ state: 'attached', timeout: 60_000 });
      await idle();
      assert.equal(await chat.locator('#agent-select').inputValue(), 'builtin');
      await chat.locator('.agent-offer').waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
      assert.equal(await chat.locator('.agent-offer').count(), 0);
    } catch (e) {
      w.fail(e);
    }
  });

  it('issue 15 Why 7: a Read turn of the built-in agent shows the file\'s contents once', async () => {
    try {
      await send('read src/greeting.ts');
      await chat.locator('article.tool-card[data-output-type="file_content"]').waitFor({ timeout: 60_000 });
      await idle();
      await chat.getByText('Read `src/greeting.ts`', { exact: false }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
      assert.equal(await occurrences(chat, 'return `Hello, ${name}!`;'), 1, 'the line is shown once (in the Read card)');
      await w.shot('header-04-read-once');
    } catch (e) {
      w.fail(e);
    }
  });

  it('issue 15 Why 7: a Bash turn shows its output once (not as a stream and again as the result)', async () => {
    try {
      await send("run `printf '%s-%s\\n' e2e marker`");
      const permission = chat.locator('section.interaction[aria-label^="Permission request"]');
      await permission.waitFor({ timeout: 60_000 });
      await permission.getByRole('button', { name: /Allow once/ }).click();
      await chat.locator('article.tool-card.status-success[aria-label^="Tool Bash:"]').waitFor({ timeout: 60_000 });
      await idle();
      assert.equal(await occurrences(chat, 'e2e-marker'), 1, 'the output is shown once');
      assert.equal(await chat.locator('article.tool-card .stream-output').count(), 0, 'the live stream gave way to the result');
      await w.shot('header-05-bash-once');
    } catch (e) {
      w.fail(e);
    }
  });

  it('decision 524: Ctrl+F in the chat opens Find in chat in a real VS Code (the workbench does not take the key), finds the Bash output, and Escape gives focus back', async () => {
    try {
      await composer().click();
      await w.page.keyboard.press('Control+f');
      const bar = chat.locator('.find-bar[role="search"]');
      await bar.waitFor({ state: 'visible', timeout: 15_000 });
      const focused = () => chat.locator('body').evaluate(() => document.activeElement?.className ?? '');
      assert.match(await focused(), /find-input/, 'the find field has the focus');
      await w.page.keyboard.type('e2e-marker');
      const count = chat.locator('.find-count[data-known="true"][data-query="e2e-marker"]');
      await count.waitFor({ timeout: 15_000 });
      assert.equal((await count.innerText()).trim(), '1 of 1', 'the keys went to the chat\'s field, and it found the output');
      assert.equal(await w.page.locator('.find-widget.visible').count(), 0, 'no find widget of the workbench opened');
      await w.shot('header-06-find');
      await w.page.keyboard.press('Escape');
      await bar.waitFor({ state: 'detached', timeout: 10_000 });
      assert.equal(await chat.locator('[role="textbox"]').first().evaluate((el) => el === document.activeElement || el.contains(document.activeElement)), true, 'the composer has it');
    } catch (e) {
      w.fail(e);
    }
  });
});
