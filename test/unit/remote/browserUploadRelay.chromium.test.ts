// §2.4 + §4.5.1 in the browser master, black box: a real `rawp serve` child process serves the
// chat page (GET /) to real Chromium; a second master (the reconnecting Node client) uploads a file
// (PUT /v1/files/{id}) and announces it (agent.file.transfer, direction upload). The browser
// master shows the upload — name, type, size, a download link whose bytes are the uploaded file,
// an image's decoded preview — on its live connection, without a reload. And a prompt the host
// refuses (§6.1.1 admission) shows its code's sentence in the browser master too (decision 470).
import { strict as assert } from 'node:assert';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, pageErrors } from '../../browser/harness';
import { serve, stopAll, type ServeChild } from '../../security/serveProcess';
import { waitFor } from './harness';

const NOTES = Buffer.from('shopping list: milk, eggs\n');
// A 1×1 PNG (as in the webview's file-transfer test).
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function put(child: ServeChild, id: string, body: Buffer, file_name: string, type: string): Promise<number> {
  const q = new URLSearchParams({ session_id: child.session_id, file_name });
  return new Promise((resolve, reject) => {
    const req = request(`${child.url}/v1/files/${id}?${q}`, { method: 'PUT', headers: { authorization: `Bearer ${child.token}`, 'content-type': type, 'x-checksum-sha256': sha(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface BrowserMaster {
  page: Page;
  /** Types of the frames the page's WebSocket received, in order. */
  received: string[];
  /** Main-frame navigations after the first load (a reload would add one). */
  navigations: () => number;
}

describe('remote: §2.4 §4.5.1 the browser master in Chromium shows another master\'s upload live (real rawp serve)', function () {
  this.timeout(180_000);
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close().catch(() => undefined);
    browser = undefined;
    await stopAll();
  });

  /** Opens the served page with the token in the fragment and waits (bounded) until its WebSocket is attached and the composer is there. */
  async function openMaster(child: ServeChild, locale = 'en-US'): Promise<BrowserMaster> {
    browser ??= await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ locale, acceptDownloads: true, viewport: { width: 720, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    (page as Page & { rawpErrors?: string[] }).rawpErrors = errors;
    const received: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => {
      try {
        received.push(String((JSON.parse(String(f.payload)) as { type?: unknown }).type));
      } catch {
        received.push('?');
      }
    }));
    let loads = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) loads++;
    });
    await page.goto(`${child.url}/#token=${child.token}&session=${child.session_id}`);
    await waitFor(() => received.includes('session.capabilities'), 'the page attached over WebSocket', 60_000);
    await page.locator('.editor').waitFor({ state: 'visible', timeout: 30_000 });
    const first = loads;
    return { page, received, navigations: () => loads - first };
  }

  it('§4.5.1 §2.4 master B uploads notes.txt and a PNG: the browser master shows each (name, type, size), the link holds the uploaded bytes, the PNG is decoded — same page, no reload', async () => {
    const child = await serve();
    const bm = await openMaster(child);
    const b = await child.master();

    const txt = randomUUID();
    assert.equal(await put(child, txt, NOTES, 'notes.txt', 'text/plain'), 201);
    const sent = b.client.send('agent.file.transfer', { transfer_id: txt, direction: 'upload', file_url: `/v1/files/${txt}`, file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: NOTES.length, checksum: sha(NOTES) });
    assert.ok(sent);
    const card = bm.page.locator('.file-transfer', { hasText: 'notes.txt' });
    // The link appears once the page has fetched the file with its token (a blob: URL).
    await card.locator('a[download="notes.txt"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await card.innerText(), new RegExp(`notes\\.txt\\s+text/plain · ${NOTES.length} B`));
    assert.equal(await card.locator('.codicon-cloud-upload').count(), 1, 'shown as an upload');
    const href = (await card.locator('a[download="notes.txt"]').getAttribute('href')) ?? '';
    assert.match(href, /^blob:/);
    // The user's own action: click the link; the browser saves the file (the page's CSP keeps its own fetch off blob:).
    const [download] = await Promise.all([bm.page.waitForEvent('download', { timeout: 30_000 }), card.locator('a[download="notes.txt"]').click()]);
    assert.equal(download.suggestedFilename(), 'notes.txt');
    assert.ok(readFileSync(await download.path()).equals(NOTES), 'the link holds the bytes master B uploaded');

    const img = randomUUID();
    assert.equal(await put(child, img, PNG, 'dot.png', 'image/png'), 201);
    assert.ok(b.client.send('agent.file.transfer', { transfer_id: img, direction: 'upload', file_url: `/v1/files/${img}`, file_name: 'dot.png', mime_type: 'image/png', size_bytes: PNG.length, checksum: sha(PNG) }));
    const preview = bm.page.locator('.file-transfer', { hasText: 'dot.png' }).locator('img.transfer-preview');
    await preview.waitFor({ state: 'visible', timeout: 30_000 });
    await bm.page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await preview.elementHandle(), { timeout: 30_000 });
    assert.equal(await preview.evaluate((e: HTMLImageElement) => e.naturalWidth), 1, 'the PNG was decoded');
    assert.match(await bm.page.locator('.file-transfer', { hasText: 'dot.png' }).innerText(), new RegExp(`image/png · ${PNG.length} B`));

    assert.equal(bm.received.filter((t) => t === 'agent.file.transfer').length, 2, 'both came on the live connection');
    assert.equal(bm.navigations(), 0, 'no reload');
    assert.equal(await bm.page.locator('.file-transfer').count(), 2, 'each upload once');
    assert.deepEqual(pageErrors(bm.page), []);
  });

  it('§6.1.1 §2.2 a prompt the host refuses (/rename without a name) shows its code\'s sentence in the browser master, English and Korean, the code in the tooltip', async () => {
    const child = await serve();
    for (const [locale, sentence, tooltip] of [
      ['en-US', 'The command could not be run.', 'Code: COMMAND_FAILED'],
      ['ko-KR', '명령을 실행할 수 없었습니다.', '코드: COMMAND_FAILED'],
    ] as const) {
      const bm = await openMaster(child, locale);
      await bm.page.locator('.editor').click();
      await bm.page.keyboard.type('/rename');
      // Enter may first complete the command in the / picker ("/rename "); then it sends. Bounded: two tries.
      const editorEmpty = () => bm.page.waitForFunction(() => (document.querySelector('.editor')?.textContent ?? '').trim() === '', undefined, { timeout: 5_000 }).then(() => true, () => false);
      await bm.page.keyboard.press('Enter');
      if (!(await editorEmpty())) await bm.page.keyboard.press('Enter');
      assert.ok(await editorEmpty(), 'the prompt was sent');
      const refused = bm.page.locator('.banners .notice-sentence[data-code="COMMAND_FAILED"]');
      await refused.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await refused.innerText(), sentence, locale);
      assert.equal(await refused.getAttribute('title'), tooltip);
      assert.match(await bm.page.locator('.banners .banner', { has: bm.page.locator('.notice-sentence[data-code="COMMAND_FAILED"]') }).innerText(), /Usage: \/rename/, 'the host\'s words follow');
      assert.deepEqual(pageErrors(bm.page), []);
    }
  });
});
