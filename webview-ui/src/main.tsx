// Webview entry: picks the transport (a test's injected one, VS Code's postMessage, or a WebSocket
// for the browser master), creates the store and mounts the chat. No eval anywhere: zod runs
// jitless so a strict CSP (no 'unsafe-eval') is never even probed.
import './zodJitless';
import { render } from 'preact';
import '@vscode/codicons/dist/codicon.css';
import './styles/tokens.css';
import './styles/app.css';
import './styles/a11y.css';
import './styles/find.css';
import { parseHostMessage } from '../../src/protocol/webviewMessages';
import { ChatStore } from './state/store';
import type { Transport } from './transport/types';
import { VsCodeTransport, type VsCodeApi } from './transport/vscode';
import { WebSocketTransport } from './transport/websocket';
import { App } from './view/app';
import { resolveLocale, setLocale, t } from './i18n';

declare global {
  interface Window {
    /** Set by a test page (before this script) to drive the UI with recorded frames. */
    rawpTransport?: Transport;
    /** The store, for tests and the benchmark to read. */
    rawpStore?: ChatStore;
  }
  function acquireVsCodeApi(): VsCodeApi;
}

/** Browser master: session and token come from the root's data attributes or the URL fragment
 *  (never the query string, so they stay out of server logs and Referer headers). */
function browserTransport(root: HTMLElement): Transport {
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = root.dataset.token ?? hash.get('token') ?? '';
  const sessionId = root.dataset.sessionId ?? hash.get('session') ?? undefined;
  return new WebSocketTransport({ baseUrl: root.dataset.server ?? location.origin, token, sessionId, storage: sessionStorage });
}

/** A page's own transport is outside our code: its messages are validated like VS Code's. */
function validated(t: Transport): Transport {
  return {
    send: (m) => t.send(m),
    onMessage: (listener) =>
      t.onMessage((raw) => {
        const parsed = parseHostMessage(raw);
        if (parsed.ok) listener(parsed.message);
        else console.warn(`rawp: ${parsed.error}`);
      }),
    getState: () => t.getState(),
    setState: (s) => t.setState(s),
    // §4.5.1: only a string answer is a URL; anything else is "not available here".
    ...(t.place === 'browser' ? { place: 'browser' as const } : {}),
    ...(typeof t.resolveFile === 'function' ? { resolveFile: (session_id: string, transfer: { transfer_id: string; file_url: string }) => Promise.resolve(t.resolveFile?.(session_id, transfer)).then((u) => (typeof u === 'string' ? u : undefined)) } : {}),
  };
}

/** The browser master's page (`rawp serve`): neither a test's transport nor VS Code's. */
function isBrowserPage(): boolean {
  return !window.rawpTransport && typeof acquireVsCodeApi !== 'function';
}

function pickTransport(root: HTMLElement): Transport {
  if (window.rawpTransport) return validated(window.rawpTransport);
  if (typeof acquireVsCodeApi === 'function') return new VsCodeTransport(acquireVsCodeApi());
  return browserTransport(root);
}

/**
 * The browser page, once the chat is mounted: its title in the view's language (the server writes
 * an English one before the language is known), and the prompt box focused — the token form that
 * held focus is gone, and focus left on <body> made the prompt the tenth Tab stop (decision 605).
 * Not inside VS Code: a view that takes focus when it loads would take it from the editor.
 */
function startBrowserPage(root: HTMLElement): void {
  document.title = t('app.pageTitle');
  const prompt = root.querySelector<HTMLElement>('.composer .editor');
  if (prompt && (document.activeElement === null || document.activeElement === document.body)) prompt.focus();
}

const root = document.getElementById('root');
if (root) {
  // Inside VS Code the host names its display language (data-locale); the browser master and the
  // fixture pages follow the browser's languages (decision 370).
  const declared = root.dataset.locale;
  const chosen = resolveLocale(declared ? [declared] : [...(navigator.languages ?? []), navigator.language]);
  setLocale(chosen);
  document.documentElement.lang = chosen;
  const browserPage = isBrowserPage();
  const store = new ChatStore(pickTransport(root));
  window.rawpStore = store;
  render(<App store={store} />, root);
  if (browserPage) startBrowserPage(root);
  store.start();
}
