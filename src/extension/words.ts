// The host's words port: `vscode.l10n` in the editor (l10n/bundle.l10n.*.json, keyed by the English
// text), plain English with `{0}` arguments where no VS Code runs (unit tests, decision 370). Code that
// stays vscode-free (the chat controller) takes it as an option, so its notices are localised too.
export interface Words {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

export const englishWords: Words = {
  t: (message, ...args) => message.replace(/\{(\d+)\}/g, (whole, n: string) => (args[Number(n)] === undefined ? whole : String(args[Number(n)]))),
};
