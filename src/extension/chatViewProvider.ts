// The "Chat" webview view: HTML with a nonce CSP, resources only from dist/ and media/, and every
// message handed to the chat controller (which validates it against the typed message map).
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import type { ChatController } from './chatController';
import { newNonce, webviewHtml } from './webviewHtml';

export const CHAT_VIEW_ID = 'rawp.chat';

export class ChatViewProvider implements vscode.WebviewViewProvider {
  /** The last HTML served (integration tests check its CSP). */
  lastHtml?: string;
  private view?: vscode.WebviewView;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
  ) {}

  get isResolved(): boolean {
    return this.view !== undefined;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media] };
    const css = vscode.Uri.joinPath(dist, 'webview.css');
    this.lastHtml = webviewHtml({
      cspSource: view.webview.cspSource,
      nonce: newNonce(),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      ...(existsSync(css.fsPath) ? { styleUri: view.webview.asWebviewUri(css).toString() } : {}),
    });
    // Register the listener before the HTML loads, so the webview's first `ready` is not missed.
    const sub = view.webview.onDidReceiveMessage((m: unknown) => void this.controller.receive(m));
    this.controller.setView((m) => void view.webview.postMessage(m));
    view.webview.html = this.lastHtml;
    view.onDidDispose(() => {
      sub.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.controller.setView(undefined);
      }
    });
  }
}
