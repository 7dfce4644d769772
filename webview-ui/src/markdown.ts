// Markdown for agent text: markdown-it with raw HTML off (agent text can never inject markup),
// links only to http(s) and mailto (javascript:, data:, vscode: … stay plain text), and fenced code
// blocks wrapped with a copy button (the click is handled by delegation, no inline handlers).
import MarkdownIt from 'markdown-it';
import { CUT_MARK_PATTERN } from '../../src/protocol/cutMark';
import { t } from './i18n';

const SAFE_LINK = /^(https?:|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });

md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  tokens[idx].attrSet('target', '_blank');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  const lang = token.info.trim().split(/\s+/)[0] ?? '';
  const code = md.utils.escapeHtml(token.content);
  const label = lang ? `<span class="code-lang">${md.utils.escapeHtml(lang)}</span>` : '';
  // A block that spans a middle cut (a message over the view's frame budget, decision 516) holds
  // the cut mark: it says so before it is copied, and its copy keeps the mark where the code is
  // missing (decision 533), so what is pasted never looks whole.
  const cut = CUT_MARK_PATTERN.exec(token.content);
  const cutChars = cut ? Number(cut[1]) : 0;
  const note = cut ? `<span class="code-cut">${md.utils.escapeHtml(t('app.codeCut', cutChars))}</span>` : '';
  const copyLabel = cut ? t('app.copyCutCode', cutChars) : t('app.copyCode');
  const cutAttr = cut ? ` data-cut="${cutChars}"` : '';
  // The language and the copy button sit in a row of their own above the code, so they never
  // cover its first line (issue 15 Why 8).
  return `<div class="code-block"><div class="code-head">${note}${label}<button type="button" class="copy-code" data-action="copy-code"${cutAttr} aria-label="${md.utils.escapeHtml(copyLabel)}"><span class="codicon codicon-copy" aria-hidden="true"></span></button></div><pre><code>${code}</code></pre></div>`;
};

/** Markdown → HTML that is safe to set as innerHTML. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
