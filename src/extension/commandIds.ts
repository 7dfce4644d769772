// The palette commands (package.json contributes.commands), as ids only: registered at activation,
// their handlers (paletteCommands.ts) are loaded with the rest of the extension on first use.
export const COMMAND_IDS = [
  'rawp.newSession',
  'rawp.switchSession',
  'rawp.renameSession',
  'rawp.deleteSession',
  'rawp.cancelTurn',
  'rawp.compact',
  'rawp.switchMode',
  'rawp.pickAgent',
  'rawp.shareSession',
  'rawp.copyAttachUrl',
  'rawp.stopSharing',
  'rawp.showLogs',
  'rawp.managePermissionRules',
  'rawp.setApiKey',
  'rawp.openDiff',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
