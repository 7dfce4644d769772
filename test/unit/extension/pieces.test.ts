// The extension's pure pieces: the webview HTML and its CSP, the status text, and rebuilding an
// edit's "before" text for the diff editor.
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { textBefore } from '../../../src/extension/diffContent';
import { readFileSync } from 'node:fs';
import { agentDisplayName } from '../../../src/extension/agentDisplayName';
import { statusText } from '../../../src/extension/statusText';
import { englishWords } from '../../../src/extension/words';
import { contentSecurityPolicy, newNonce, webviewHtml } from '../../../src/extension/webviewHtml';

describe('extension: webview HTML', () => {
  const source = 'https://*.vscode-cdn.net';

  it('has a strict CSP: nothing by default, scripts only with the nonce, styles/fonts/images only from the webview source', () => {
    const csp = contentSecurityPolicy(source, 'abc123');
    assert.deepEqual(csp.split('; '), [
      "default-src 'none'",
      "script-src 'nonce-abc123'",
      `style-src ${source}`,
      `font-src ${source}`,
      `img-src ${source} data:`,
    ]);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline/);
  });

  it('puts the nonce on its one script and the CSP first in <head>', () => {
    const html = webviewHtml({ cspSource: source, nonce: 'N0nce', scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/x/dist/webview.js', styleUri: 'https://file+.vscode-resource.vscode-cdn.net/x/dist/webview.css' });
    assert.match(html, /<head>\s*<meta charset="UTF-8">\s*<meta http-equiv="Content-Security-Policy"/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0][1], /nonce="N0nce"/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource[^"]+webview\.css">/);
  });

  it('escapes attribute values (a URI cannot break out of its attribute)', () => {
    const html = webviewHtml({ cspSource: source, nonce: 'n', scriptUri: 'x"><script>alert(1)</script>' });
    assert.equal([...html.matchAll(/<script/g)].length, 1);
    assert.match(html, /x&quot;&gt;&lt;script&gt;/);
  });

  it('makes a fresh, long, alphanumeric nonce each time', () => {
    const a = newNonce();
    const b = newNonce();
    assert.notEqual(a, b);
    assert.match(a, /^[A-Za-z0-9]{16,}$/);
  });
});

describe('extension: an agent\'s name in the status bar and notifications', () => {
  it('the built-in agent is named in the editor\'s language, as the chat names it; a detected agent without its version (the UI trial of 2026-12-06)', () => {
    const ko = JSON.parse(readFileSync('l10n/bundle.l10n.ko.json', 'utf8')) as Record<string, string>;
    const korean = { t: (m: string) => ko[m] ?? m };
    const detected = [{ id: 'claude-code', name: 'Claude Code 2.1.3' }];
    assert.equal(agentDisplayName('builtin', detected, korean), '내장 (오프라인)');
    assert.equal(agentDisplayName('builtin', detected, englishWords), 'Built-in (offline)');
    assert.equal(agentDisplayName('claude-code', detected, korean), 'Claude Code');
    assert.equal(agentDisplayName('acp:other', detected, korean), 'acp:other');
    assert.match(statusText({ agentName: agentDisplayName('builtin', detected, korean), state: 'idle', masters: 0, shared: false }).text, /내장 \(오프라인\): ready$/);
  });
});

describe('extension: status text', () => {
  it('says the agent state and the attached masters', () => {
    assert.match(statusText({ agentName: 'builtin', state: 'awaiting_input', masters: 2, shared: true }).text, /builtin: waiting for you .*2$/);
    assert.doesNotMatch(statusText({ agentName: 'builtin', state: 'idle', masters: 0, shared: false }).text, /broadcast/);
  });

  it('says why nothing runs in Restricted Mode', () => {
    const s = statusText({ masters: 0, shared: false, blocked: 'Restricted Mode: trust the folder' });
    assert.match(s.text, /restricted/);
    assert.equal(s.tooltip, 'Restricted Mode: trust the folder');
  });
});

describe('extension: the text before an edit, for vscode.diff', () => {
  const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
  const after = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\n';
  const unified_diff = createTwoFilesPatch('a/f.txt', 'b/f.txt', before, after, '', '', { context: 3 });

  it('rebuilds the original from the patch and the current text', () => {
    assert.equal(textBefore({ file_path: 'f.txt', unified_diff }, after), before);
  });

  it('gives up (undefined) when the file has changed since, instead of showing a wrong original', () => {
    assert.equal(textBefore({ file_path: 'f.txt', unified_diff }, 'something else entirely\n'), undefined);
  });

  it('an empty diff means nothing changed', () => {
    assert.equal(textBefore({ file_path: 'f.txt', unified_diff: '' }, after), after);
  });
});
