// The "Chat" webview view: HTML with a nonce CSP, resources only from dist/, media/ and the §4.5.1
// file store (the session files it shows), and every
// message handed to the chat controller (which validates it against the typed message map). The
// controller is loaded with the rest of the extension after activation; messages that arrive
// before it is there wait in order.
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import type { ChatController } from './chatController';
import { newNonce, webviewHtml } from './webviewHtml';

export const CHAT_VIEW_ID = 'rawp.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider {
  /** The last HTML served (integration tests check its CSP). */
  lastHtml?: string;
  private view?: vscode.WebviewView;
  private badge?: vscode.ViewBadge;
  private readonly visibility = new vscode.EventEmitter<boolean>();
  /** The view was shown or hidden (or resolved, or disposed). */
  readonly onDidChangeVisibility = this.visibility.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: () => Promise<ChatController>,
    /** The §4.5.1 file store: the view shows transfers' files from here (webview resources). */
    private readonly filesDir?: string,
  ) {}

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  /** The chat is on screen (resolved and not hidden behind another view). */
  get visible(): boolean {
    return this.view?.visible === true;
  }

  /** The activity-bar badge (decision 382); kept for a view resolved later. */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    if (this.view) this.view.badge = badge;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.badge = this.badge;
    const shown = view.onDidChangeVisibility(() => this.visibility.fire(view.visible));
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const files = this.filesDir ? [vscode.Uri.file(this.filesDir)] : [];
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media, ...files] };
    const css = vscode.Uri.joinPath(dist, 'webview.css');
    this.lastHtml = webviewHtml({
      cspSource: view.webview.cspSource,
      nonce: newNonce(),
      locale: vscode.env.language,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      ...(existsSync(css.fsPath) ? { styleUri: view.webview.asWebviewUri(css).toString() } : {}),
    });
    // The listener comes before the HTML, so the webview's first `ready` is never missed; it is
    // handled once the controller is loaded and knows this view.
    const ready = this.controller().then((c) => {
      if (this.view === view) c.setView((m) => void view.webview.postMessage(m), (p) => view.webview.asWebviewUri(vscode.Uri.file(p)).toString());
      return c;
    });
    let chain: Promise<unknown> = ready;
    const sub = view.webview.onDidReceiveMessage((m: unknown) => {
      chain = chain.then(() => ready.then((c) => (this.view === view ? c.receive(m) : undefined))).catch(() => undefined);
    });
    view.webview.html = this.lastHtml;
    view.onDidDispose(() => {
      sub.dispose();
      shown.dispose();
      if (this.view === view) {
        this.view = undefined;
        void ready.then((c) => c.setView(undefined));
        this.visibility.fire(false);
      }
    });
    this.visibility.fire(view.visible);
  }
}
