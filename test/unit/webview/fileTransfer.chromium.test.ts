// §4.5.1 agent.file.transfer cards in the real chat webview (Chromium, the fixture page's strict
// CSP): an image file shows a preview and a download link loaded through the transport's
// resolveFile (VS Code: a webview resource; browser master: a blob: fetched with the token); other
// files get the link only; a file this view cannot load says so instead of a dead link.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, pageErrors, startHarness, violations, type Harness } from '../../browser/harness';
import { SESSION } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');
const IMG = '0b9a6a3e-8f4c-4d6e-9d3a-4b1f2c3d4e5f';
const TXT = '1c8b7a6e-5d4c-4b3a-8a29-1f0e9d8c7b6a';
const GONE = '2d7c6b5a-4e3d-4c2b-9b1a-0f9e8d7c6b5a';

describe('webview in Chromium: §4.5.1 file transfer cards', function () {
  this.timeout(60_000);
  let h: Harness;
  let page: Page;

  before(async () => {
    h = await startHarness();
    page = await h.open();
    await page.evaluate(
      ({ img, txt, png }) => {
        const w = window as unknown as { rawpFake: { files: Record<string, string> } };
        w.rawpFake.files[img] = `data:image/png;base64,${png}`;
        w.rawpFake.files[txt] = 'data:text/plain,hello';
      },
      { img: IMG, txt: TXT, png: PNG.toString('base64') },
    );
    const b = streamBuilder(SESSION);
    const transfer = (transfer_id: string, file_name: string, mime_type: string) =>
      b.make('agent.file.transfer', { transfer_id, direction: 'download', file_url: `/v1/files/${transfer_id}`, file_name, mime_type, size_bytes: 67, checksum: 'a'.repeat(64) });
    await feed(page, SESSION, [transfer(IMG, 'chart.png', 'image/png'), transfer(TXT, 'notes.txt', 'text/plain'), transfer(GONE, 'old.png', 'image/png')], true);
    await page.waitForSelector('.transfer-preview');
  });
  after(async () => h?.close());

  it('§4.5.1 an image transfer shows its preview (decoded) and a download link to the same file', async () => {
    const card = page.locator('.file-transfer', { hasText: 'chart.png' });
    const img = card.locator('img.transfer-preview');
    assert.equal(await img.count(), 1);
    assert.equal(await img.evaluate((e: HTMLImageElement) => e.naturalWidth), 1, 'the PNG was decoded');
    assert.equal(await img.getAttribute('alt'), 'Preview of chart.png');
    const link = card.locator('a[download]');
    assert.equal(await link.getAttribute('download'), 'chart.png');
    assert.equal(await link.getAttribute('href'), await img.getAttribute('src'));
  });

  it('§4.5.1 a non-image file gets a download link only; one this view cannot load says so', async () => {
    const txt = page.locator('.file-transfer', { hasText: 'notes.txt' });
    assert.equal(await txt.locator('img').count(), 0);
    assert.equal(await txt.locator('a[download]').getAttribute('href'), 'data:text/plain,hello');
    const gone = page.locator('.file-transfer', { hasText: 'old.png' });
    assert.match(await gone.innerText(), /old\.png \(not available here\)/);
    assert.equal(await gone.locator('a').count(), 0, 'no dead link');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(pageErrors(page), []);
  });
});
