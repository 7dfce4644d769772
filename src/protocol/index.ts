// The protocol layer's public surface. Pure: no Node I/O, no DOM, no vscode.
export * from './common';
export * from './envelope';
export * from './frameTypes';
export * from './parse';
export * from './build';
export * from './capabilities';
export * from './outputType';
export * as payloads from './payloads';
export * from './transcript';
export * from './fileReference';
export * from './webviewMessages';
export * from './structuredOutput';
export * from './rawpExtension';
export * from './checkpointFrames';
