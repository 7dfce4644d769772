import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, rawp } from './rawp';

describe('extension host: the chat webview view', () => {
  it('resolves when shown, with a strict nonce CSP (no unsafe-eval, nothing remote)', async () => {
    const { api } = await rawp();
    await vscode.commands.executeCommand('rawp.chat.focus');
    await eventually(() => api.provider.isResolved, 'the chat view resolves');
    const html = api.provider.lastHtml ?? '';
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]?.replace(/&#39;|&quot;/g, "'") ?? '';
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([A-Za-z0-9]+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, `a nonce in ${csp}`);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|https?:\/\/(?![^ ;]*vscode)/);
    // Every script carries the nonce; every resource URL is a webview resource URL.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.ok(scripts.length > 0 && scripts.every((s) => s.includes(`nonce="${nonce}"`)));
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(urls.length > 0);
    for (const u of urls) assert.doesNotMatch(u, /^https?:\/\/(?!.*vscode-(?:resource|cdn))/, `remote resource ${u}`);
  });

  it('decision 638: once the chat has shown, the @ index is listed in the background, with no @ typed', async () => {
    const { s } = await rawp();
    await vscode.commands.executeCommand('rawp.chat.focus');
    await eventually(() => s.fileIndexOpen(), 'the @ index opened by the warm-up', 150);
    const index = await s.fileIndex();
    await index.settled();
    assert.ok(index.index.folders[0].index.allPaths().length > 0, 'it lists the workspace');
  });
});
