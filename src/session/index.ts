// The session layer's public surface. Pure: no Node built-ins, no vscode, no DOM.
export * from './ports';
export * from './connection';
export * from './history';
export * from './hub';
export * from './engine';
export * from './registry';
export * from './toolPolicy';
export * from '../protocol/modePolicy';
export * from './interactions';
export * from './usage';
export * from './capabilities';
export { TurnStream } from './turnStream';
export * from './agentAdapter';
export * from './contextFiles';
export * from './permissions';
