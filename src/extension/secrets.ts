// Secrets live in VS Code's SecretStorage (the OS keychain), never in settings or files: the
// remote-sharing bearer token and API keys of model providers.
import type * as vscode from 'vscode';
import { generateToken, tokenProblem } from '../remote';

const TOKEN_KEY = 'rawp.remote.token';
const apiKeyName = (provider: string) => `rawp.apiKey.${provider}`;

export class Secrets {
  constructor(private readonly storage: vscode.SecretStorage) {}

  /** The sharing token; a new random one (256 bits) is made and stored the first time. */
  async remoteToken(): Promise<string> {
    const existing = await this.storage.get(TOKEN_KEY);
    if (existing && !tokenProblem(existing)) return existing;
    const token = generateToken();
    await this.storage.store(TOKEN_KEY, token);
    return token;
  }

  apiKey(provider: string): Thenable<string | undefined> {
    return this.storage.get(apiKeyName(provider));
  }

  setApiKey(provider: string, key: string): Thenable<void> {
    return key ? this.storage.store(apiKeyName(provider), key) : this.storage.delete(apiKeyName(provider));
  }
}
