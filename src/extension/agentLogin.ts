// The editor's half of the not-logged-in card (decision 381): a VS Code terminal running the
// agent's own login command, or an API key typed into a password box, kept in SecretStorage and
// handed only to that agent's processes (never logged, never in settings).
import * as vscode from 'vscode';
import { agentLogin } from '../protocol/agentLogin';
import type { Services } from './services';

/** POSIX single quotes (the terminal's shell reads the line). */
function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export async function loginAgent(s: Pick<Services, 'catalog' | 'controller' | 'secrets'>, agentId: string, via: 'terminal' | 'api_key'): Promise<void> {
  const login = agentLogin(agentId);
  if (!login) {
    s.controller.notice('warning', vscode.l10n.t('{0} has no login of its own.', agentId));
    return;
  }
  if (via === 'terminal') {
    const cmd = s.catalog.loginCommand(agentId);
    if (!cmd) return;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const terminal = vscode.window.createTerminal({ name: vscode.l10n.t('Log in: {0}', cmd.name), ...(folder ? { cwd: folder.uri } : {}), ...(cmd.env.PATH ? { env: { PATH: cmd.env.PATH } } : {}) });
    terminal.show();
    terminal.sendText([cmd.executable, ...cmd.args].map(quote).join(' '));
    s.controller.notice('info', login.loginFollowUp ? vscode.l10n.t('A terminal runs `{0}` ({1}). When it says you are logged in, send your message again.', cmd.display, login.loginFollowUp) : vscode.l10n.t('A terminal runs `{0}`. When it says you are logged in, send your message again.', cmd.display));
    return;
  }
  const provider = login.apiKey;
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0} API key', provider.label),
    prompt: vscode.l10n.t('Kept in VS Code’s secret storage and given only to the agents that use {0} (as {1}).', provider.label, provider.env),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' || /\s/.test(v.trim()) ? vscode.l10n.t('Paste the key (one word, no spaces).') : undefined),
  });
  if (key === undefined || !key.trim()) return;
  await s.secrets.setApiKey(provider.provider, key.trim());
  await s.catalog.detect(true);
  // The running agent process started without the key: a new session with the same agent has it.
  if (s.controller.activeAgent === agentId) await s.controller.newSession(agentId);
  s.controller.notice('info', vscode.l10n.t('{0} API key saved. This session’s agent uses it.', provider.label));
}
