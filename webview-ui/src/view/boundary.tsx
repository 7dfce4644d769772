// A row that fails to render shows a short note instead of taking the whole chat down, and the
// failure goes to the host's log. Frames are validated, but outputs are tool-defined (`Any`).
import { Component, type ComponentChildren } from 'preact';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import type { ChatStore } from '../state/store';
import { StoreContext } from '../state/useStore';
import { t } from '../i18n';

interface Props {
  label: string;
  children: ComponentChildren;
}

export class RowBoundary extends Component<Props, { failed?: string }> {
  static override contextType = StoreContext;

  override componentDidCatch(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.setState({ failed: message });
    (this.context as ChatStore | undefined)?.transport.send(webviewMessage('log', { level: 'error', message: `webview could not render ${this.props.label}: ${message}` }));
  }

  override render() {
    if (this.state.failed !== undefined) {
      return (
        <div class="block error-block severity-warning" role="status">
          <span class="codicon codicon-warning" aria-hidden="true" /> {t('boundary.failed', this.state.failed)}
        </div>
      );
    }
    return this.props.children;
  }
}
