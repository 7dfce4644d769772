// The extension's pure pieces: the webview HTML and its CSP, agent selection, the status text,
// rebuilding an edit's "before" text for the diff editor, and the transcript log's budget.
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { selectAgent, type AgentChoice } from '../../../src/extension/agentChoice';
import { textBefore } from '../../../src/extension/diffContent';
import { statusText } from '../../../src/extension/statusText';
import { TranscriptLog, type LoggedFrame } from '../../../src/extension/transcriptLog';
import { contentSecurityPolicy, newNonce, webviewHtml } from '../../../src/extension/webviewHtml';
import type { AgentAdapter } from '../../../src/session/agentAdapter';

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

describe('extension: agent selection', () => {
  const choice = (id: string, rank: number, available = true): AgentChoice => ({ id, name: id, rank, available, create: () => ({}) as AgentAdapter });
  const choices = [choice('builtin', 0), choice('claude-code', 10), choice('codex', 5, false)];

  it('auto picks the best available agent', () => {
    assert.equal(selectAgent(choices, 'auto')?.id, 'claude-code');
    assert.equal(selectAgent(choices, undefined)?.id, 'claude-code');
  });

  it('a named agent wins when it is available; an unavailable one falls back to the best', () => {
    assert.equal(selectAgent(choices, 'builtin')?.id, 'builtin');
    assert.equal(selectAgent(choices, 'codex')?.id, 'claude-code');
    assert.equal(selectAgent([choice('builtin', 0, false)], 'auto'), undefined);
  });
});

describe('extension: status text', () => {
  it('says the agent state and the attached masters', () => {
    assert.match(statusText({ agentName: 'builtin', state: 'awaiting_input', masters: 2, shared: true }).text, /builtin: awaiting input .*2$/);
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

describe('extension: transcript log', () => {
  const frame = (i: number, pad = 0): LoggedFrame => ({ message_id: `m${i}`, type: 'agent.text.delta', payload: { delta: 'x'.repeat(pad) } });

  it('keeps the restored frames apart from the live ones', () => {
    const log = new TranscriptLog(1_000_000, [frame(1), frame(2)]);
    log.append(frame(3));
    const { restored, live } = log.parts();
    assert.deepEqual(restored.map((f) => f.message_id), ['m1', 'm2']);
    assert.deepEqual(live.map((f) => f.message_id), ['m3']);
    assert.equal(log.lastMessageId, 'm3');
  });

  it('drops the oldest frames beyond its byte budget and says it did', () => {
    const one = JSON.stringify(frame(1, 100)).length;
    const log = new TranscriptLog(one * 3 + 10, [frame(1, 100), frame(2, 100)]);
    assert.equal(log.truncated, false);
    log.append(frame(3, 100));
    log.append(frame(4, 100));
    assert.deepEqual(log.all().map((f) => f.message_id), ['m2', 'm3', 'm4']);
    assert.equal(log.truncated, true);
    assert.deepEqual(log.parts().restored.map((f) => f.message_id), ['m2']);
  });

  it('a zero budget keeps nothing', () => {
    const log = new TranscriptLog(0);
    log.append(frame(1));
    assert.equal(log.size, 0);
    assert.equal(log.lastMessageId, undefined);
  });
});
