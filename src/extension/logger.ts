// The session layer's Logger on top of the "RAWP Agent Client" output channel, with a level from
// the rawp.logLevel setting. Data objects are appended as compact JSON.
import type * as vscode from 'vscode';
import type { Logger } from '../session/ports';

const ORDER = { debug: 0, info: 1, warn: 2, error: 3 } as const;
export type LogLevel = keyof typeof ORDER;

export function channelLogger(channel: vscode.OutputChannel, level: () => LogLevel): Logger {
  const write = (l: LogLevel, message: string, data?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level()]) return;
    let extra = '';
    if (data && Object.keys(data).length > 0) {
      try {
        extra = ' ' + JSON.stringify(data);
      } catch {
        extra = ' [unserializable data]';
      }
    }
    channel.appendLine(`${new Date().toISOString()} [${l}] ${message}${extra}`);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}
