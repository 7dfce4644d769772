// Issue 15 Why 8 in real Chromium: a send while scrolled up brings the new turn into view; the copy
// button does not cover code; durations do not wrap; file chips in the transcript open their file
// (mouse and keyboard); Tab accepts an @ suggestion (also one that arrives after the Tab); the
// delete dialog names the session; the browser master stops calling a session shared once sharing
// stops, and declares no favicon (so none is requested).
import { strict as assert } from 'node:assert';
import { WebSocketServer, type WebSocket } from 'ws';
import { feed, hostSays, rendered, sentMessages, waitForMessages, waitForSent } from '../../browser/harness';
import { SESSION, clientCaps, longSession } from '../../browser/streams';
import { harnessPerSuite, openTurn, T } from '../../browser/turnPage';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { browserPage } from '../../../src/remote/browserPage';

describe('webview in Chromium: the smaller things (issue 15 Why 8)', function () {
  this.timeout(90_000);
  const chromium = harnessPerSuite();

  it('a prompt sent while scrolled up scrolls the transcript to the new turn', async () => {
    const page = await chromium.h.open({ width: 300, height: 600 });
    await feed(page, SESSION, longSession(400), true);
    const scroller = page.locator('.transcript-scroll');
    await scroller.evaluate((el) => (el.scrollTop = 0));
    await rendered(page);
    assert.ok(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight > 1000), 'scrolled far up');
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('unique new question');
    await page.keyboard.press('Enter');
    await waitForSent(page, 'control.prompt.request', 1);
    // The virtualizer mounts and measures the rows it brings in over a few frames, so wait (bounded)
    // until the transcript rests at its end with the new prompt's row inside the scroller's box.
    const inView = await page
      .waitForFunction(() => {
        const el = document.querySelector('.transcript-scroll')!;
        const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        const prompt = [...document.querySelectorAll('.prompt-block')].find((b) => b.textContent?.includes('unique new question'));
        if (!atEnd || !prompt) return false;
        const box = el.getBoundingClientRect();
        const r = prompt.getBoundingClientRect();
        return r.height > 0 && r.bottom > box.top && r.top < box.bottom;
      }, undefined, { timeout: 15_000 })
      .then(() => true, () => false);
    assert.ok(inView, 'the new prompt is in view at the end of the transcript');
  });

  it('the copy button and the language label sit above the code, not on it', async () => {
    const long = 'const aVeryLongIdentifierNameThatFillsTheLine = computeSomethingExpensive(42);';
    const { page } = await openTurn(chromium.h, (b) => [b.make('agent.text.done', { content_index: 0, full_text: `Here:\n\n\`\`\`typescript\n${long}\nreturn 1;\n\`\`\`` }, T)], { open: { width: 300 } });
    // No inner named functions in the page (tsx would wrap them in a helper the page lacks).
    const boxes = await page.evaluate(() => {
      const block = document.querySelector('.code-block')!;
      const [copy, lang, code] = ['.copy-code', '.code-lang', 'pre'].map((sel) => {
        const r = block.querySelector(sel)!.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      });
      return { copy, lang, code };
    });
    for (const what of ['copy', 'lang'] as const) {
      const x = boxes[what];
      const overlaps = x.left < boxes.code.right && x.right > boxes.code.left && x.top < boxes.code.bottom && x.bottom > boxes.code.top;
      assert.equal(overlaps, false, `${what} ${JSON.stringify(x)} overlaps the code ${JSON.stringify(boxes.code)}`);
    }
    await page.locator('.copy-code').click();
    assert.deepEqual((await waitForMessages(page, 'clipboard.write', 1)).map((m) => m.payload), [{ text: `${long}\nreturn 1;\n` }]);
  });

  it('a duration ("4 ms") stays on one line in a narrow tool card', async () => {
    const { page } = await openTurn(
      chromium.h,
      (b) => [
        b.make('tool.invoke.request', { invocation_id: 'g', tool_name: 'Grep', input: { pattern: 'a-rather-long-pattern-that-does-not-fit-in-a-narrow-sidebar-at-all' } }, T),
        b.make('tool.invoke.result', { invocation_id: 'g', tool_name: 'Grep', status: 'success', output: 'x', output_type: 'text', duration_ms: 4 }, T),
      ],
      { open: { width: 300 } },
    );
    const d = page.locator('.tool-card .duration');
    assert.equal(await d.innerText(), '4\u00a0ms');
    const lines = await d.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    assert.equal(lines, 1, 'one line');
  });

  it('in Korean at 300 px, a cancelled tool card keeps its name whole ("Write", not "Wri" / "te") and its badges each on one line', async () => {
    const { page } = await openTurn(
      chromium.h,
      (b) => [
        b.make('tool.invoke.request', { invocation_id: 'w', tool_name: 'Write', input: { file_path: 'src/new-module/a-rather-long-file-name.ts', content: 'x' } }, T),
        b.make('tool.invoke.result', { invocation_id: 'w', tool_name: 'Write', status: 'cancelled', output: 'Connection lost', output_type: 'text', error_code: 'CONNECTION_LOST' } as never, T),
      ],
      { open: { width: 300, locale: 'ko-KR' } },
    );
    const lines = (selector: string) =>
      page.locator(selector).evaluateAll((els) =>
        els.map((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }),
      );
    assert.equal(await page.locator('.tool-card .tool-name').innerText(), 'Write');
    assert.deepEqual(await lines('.tool-card .tool-name'), [1], 'the name on one line');
    for (const n of await lines('.tool-card .tool-head > .badge')) assert.equal(n, 1, 'each badge on one line');
  });

  it('a tool card shows the tool\'s own time, not the wait for its permission answer (decision 565)', async () => {
    const at = <F,>(f: F, iso: string): F => ({ ...f, timestamp: iso });
    const { page } = await openTurn(chromium.h, (b) => [
      at(b.make('tool.invoke.request', { invocation_id: 'e', tool_name: 'Edit', input: { file_path: 'a.ts' } }, T), '2026-12-04T10:00:00.000Z'),
      at(b.make('agent.interaction.request', { interaction_id: 'p', interaction_type: 'PERMISSION', question_text: 'Edit a.ts?', timeout_sec: 60, options: [{ value: 'allow_once', label: 'Allow' }], context: { tool_name: 'Edit' } }, T), '2026-12-04T10:00:00.100Z'),
      at(b.make('control.interaction.response', { interaction_id: 'p', selected_value: 'allow_once' }), '2026-12-04T10:00:37.100Z'),
      at(b.make('tool.invoke.result', { invocation_id: 'e', tool_name: 'Edit', status: 'success', output: 'ok', output_type: 'text', duration_ms: 37_200 }, T), '2026-12-04T10:00:37.300Z'),
    ]);
    const d = page.locator('.tool-card .duration');
    assert.equal(await d.locator('[aria-hidden=true]').innerText(), '200\u00a0ms');
    assert.equal(await d.getAttribute('title'), 'Ran 200\u00a0ms; waited 37.0\u00a0s for your answer before that');
    assert.equal(await d.locator('.sr-only').textContent(), 'Ran 200\u00a0ms; waited 37.0\u00a0s for your answer before that');
  });

  it('decision 675 a rejected call never ran: its card says only how long it waited for the answer, not "Ran"; one rejected without a question shows no time', async () => {
    const at = <F,>(f: F, iso: string): F => ({ ...f, timestamp: iso });
    const { page } = await openTurn(chromium.h, (b) => [
      at(b.make('tool.invoke.request', { invocation_id: 'r', tool_name: 'Bash', input: { command: 'rm -rf build' } }, T), '2026-12-06T10:00:00.000Z'),
      at(b.make('agent.interaction.request', { interaction_id: 'p', interaction_type: 'PERMISSION', question_text: 'Run rm -rf build?', timeout_sec: 60, options: [{ value: 'allow_once', label: 'Allow' }, { value: 'reject', label: 'Reject' }], context: { tool_name: 'Bash' } }, T), '2026-12-06T10:00:00.050Z'),
      at(b.make('control.interaction.response', { interaction_id: 'p', selected_value: 'reject' }), '2026-12-06T10:00:00.362Z'),
      at(b.make('tool.invoke.result', { invocation_id: 'r', tool_name: 'Bash', status: 'error', output: 'PERMISSION_REJECTED: the user rejected this Bash call', output_type: 'text', error_code: 'PERMISSION_REJECTED', duration_ms: 411 } as never, T), '2026-12-06T10:00:00.411Z'),
      at(b.make('tool.invoke.request', { invocation_id: 'q', tool_name: 'Write', input: { file_path: 'a.ts', content: 'x' } }, T), '2026-12-06T10:00:01.000Z'),
      at(b.make('tool.invoke.result', { invocation_id: 'q', tool_name: 'Write', status: 'error', output: 'PERMISSION_REJECTED: a saved rule rejects Write', output_type: 'text', error_code: 'PERMISSION_REJECTED', duration_ms: 3 } as never, T), '2026-12-06T10:00:01.003Z'),
    ]);
    const card = page.locator('.tool-card[data-invocation="r"]');
    assert.equal((await card.locator('.badge.status').innerText()).trim(), 'Rejected');
    const d = card.locator('.duration');
    assert.equal(await d.locator('[aria-hidden=true]').innerText(), 'waited 312\u00a0ms');
    assert.equal(await d.getAttribute('title'), 'Waited 312\u00a0ms for your answer; it did not run');
    assert.equal(await d.locator('.sr-only').textContent(), 'Waited 312\u00a0ms for your answer; it did not run');
    assert.doesNotMatch(await card.locator('.tool-head').evaluate((el) => el.textContent + ' ' + [...el.querySelectorAll('[title]')].map((e) => e.getAttribute('title')).join(' ')), /\bRan\b|99\u00a0ms/);
    assert.equal(await page.locator('.tool-card[data-invocation="q"] .duration').count(), 0, 'no question, no wait: no time at all');
  });

  it('§16.2 a file chip of a prompt in the transcript opens its file: by click, Enter and Space', async () => {
    const page = await chromium.h.open();
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [clientCaps(b), b.make('control.prompt.request', { prompt_text: 'look at <@file:ref_0|src/auth.ts>', file_references: [{ ref_id: 'ref_0', path: '/ws/src/auth.ts', name: 'auth.ts', workspace_relative_path: 'src/auth.ts' }] })], true);
    const chip = page.getByRole('button', { name: 'src/auth.ts' });
    assert.equal(await chip.count(), 1);
    await chip.click();
    await chip.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    assert.deepEqual((await waitForMessages(page, 'file.open', 3)).map((m) => m.payload), [{ path: 'src/auth.ts' }, { path: 'src/auth.ts' }, { path: 'src/auth.ts' }]);
  });

  it('§16.1 Tab accepts the @ suggestion; a Tab pressed before the suggestions arrive takes the first of them', async () => {
    const page = await chromium.h.open();
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [clientCaps(b)], true);
    await page.locator('[role=textbox]').click();
    const answer = async (n: number, path: string) => {
      const search = (await waitForSent(page, 'control.file.search', n))[n - 1];
      await feed(page, SESSION, [b.make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path, name: path.split('/').pop()!, directory: 'src' }], truncated: false }, { parent_id: search.message_id })]);
    };
    await page.keyboard.type('see @gre');
    await answer(1, 'src/greeting.ts');
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'src/greeting.ts');
    assert.ok(await page.locator('.editor').evaluate((el) => el === document.activeElement || el.contains(document.activeElement)), 'the focus stayed in the composer');
    // Tab at once, before the debounced search has even gone out.
    await page.keyboard.type(' and @aut');
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('.editor .chip').count(), 1, 'nothing to accept yet');
    await answer(2, 'src/auth.ts');
    await page.waitForFunction(() => document.querySelectorAll('.editor .chip').length === 2, undefined, { timeout: 15_000 });
    assert.deepEqual(await page.locator('.editor .chip').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.path)), ['src/greeting.ts', 'src/auth.ts']);
  });

  it('the delete dialog names the session; Cancel (focused) and Esc keep it and give focus back to the trash button, Delete deletes it', async () => {
    const page = await chromium.h.open({ width: 300 });
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION))], true);
    await hostSays(page, [{ kind: 'session.list', payload: { active_session_id: SESSION, sessions: [{ session_id: SESSION, name: 'Fix the token check', agent: 'builtin' }] } }]);
    const trash = page.getByRole('button', { name: 'Delete this session' });
    await trash.click();
    const dialog = page.getByRole('alertdialog');
    assert.match(await dialog.innerText(), /Delete “Fix the token check”\?/);
    // Focus moves to Cancel in an effect after the dialog renders: wait for it, bounded.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Cancel', null, { timeout: 15_000 });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    assert.equal(await dialog.count(), 0);
    // The focused Cancel is gone with the dialog: focus is back on the trash button, not on the page.
    const onTrash = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Delete this session');
    assert.equal(await onTrash(), true, 'after Esc, focus is on Delete this session');
    await trash.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await onTrash(), true, 'after Cancel, focus is on Delete this session');
    assert.equal((await sentMessages(page)).filter((m) => m.kind === 'session.delete').length, 0, 'nothing deleted yet');
    await trash.click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    assert.deepEqual((await waitForMessages(page, 'session.delete', 1)).map((m) => m.payload), [{ session_id: SESSION }]);
  });

  it('the browser master: when the host stops sharing (close 4403) it says so, refreshes its list and no longer calls the session shared', async () => {
    let shared = true;
    const sockets: WebSocket[] = [];
    const wss = new WebSocketServer({ server: chromium.h.server, handleProtocols: (protocols) => (protocols.has('rawp-dps-1.0') ? 'rawp-dps-1.0' : false) });
    chromium.h.routes.push((req, res) => {
      if (req.url !== '/v1/sessions') return false;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ sessions: shared ? [{ session_id: SESSION, name: 'Shared one', state: 'idle' }] : [] }));
      return true;
    });
    wss.on('connection', (socket: WebSocket) => {
      sockets.push(socket);
      socket.send(JSON.stringify(clientCaps(streamBuilder(SESSION))));
    });
    try {
      const page = await chromium.h.open({}, `${chromium.h.origin}/browser.html#session=${SESSION}&token=t0ken`);
      await page.waitForFunction(() => [...document.querySelectorAll('#session-select option')].some((o) => o.textContent?.includes('shared')), undefined, { timeout: 10_000 });
      shared = false;
      sockets[0].close(4403, 'session is no longer shared');
      await page.locator('.banner', { hasText: 'no longer shared' }).waitFor({ timeout: 10_000 });
      await page.waitForFunction(() => ![...document.querySelectorAll('#session-select option')].some((o) => o.textContent?.includes('shared')), undefined, { timeout: 10_000 });
      await page.waitForTimeout(1_500);
      assert.equal(sockets.length, 1, 'no reconnect to a session that is not shared');
    } finally {
      for (const s of sockets) s.terminate();
      wss.close();
    }
  });

  it('the browser master page declares no favicon (an empty data: icon), so the browser requests none', async () => {
    const html = browserPage('bm9uY2U=', { hasCss: false });
    assert.match(html, /<link rel="icon" href="data:,">/);
    const requests: string[] = [];
    chromium.h.routes.push((req, res) => {
      if (req.url === '/bm.html') {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': "default-src 'none'; img-src 'self' data:" }).end(html.replace(/<script[\s\S]*<\/script>/, ''));
        return true;
      }
      if (req.url?.startsWith('/favicon')) requests.push(req.url);
      return false;
    });
    const context = await chromium.h.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${chromium.h.origin}/bm.html`);
      await page.waitForTimeout(500);
      assert.deepEqual(requests, []);
    } finally {
      await context.close();
    }
  });
});
