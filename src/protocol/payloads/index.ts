export * from './agent';
export * from './control';
export * from './session';
export * from './tool';
