// The chat view's HTML: a strict Content Security Policy with a fresh nonce per load — scripts only
// with that nonce, styles/fonts/images only from the extension's own resource roots (and data:
// images), nothing remote, no eval. Pure, so the policy is unit-tested without VS Code.
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlInput {
  /** `webview.cspSource`: the origin VS Code serves local resources from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri?: string;
  /** VS Code's display language (`vscode.env.language`, e.g. `en`, `ko`): the view's words follow it
   *  (decision 370). Only a language tag's characters reach the page. */
  locale?: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

export function webviewHtml(input: WebviewHtmlInput): string {
  const csp = contentSecurityPolicy(input.cspSource, input.nonce);
  const locale = (input.locale ?? 'en').replace(/[^A-Za-z0-9-]/g, '').slice(0, 35) || 'en';
  const style = input.styleUri ? `\n  <link rel="stylesheet" href="${escapeAttr(input.styleUri)}">` : '';
  return `<!DOCTYPE html>
<html lang="${locale}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">${style}
  <title>RAWP Chat</title>
</head>
<body>
  <div id="root" data-locale="${locale}"></div>
  <script nonce="${escapeAttr(input.nonce)}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
