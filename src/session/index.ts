// placeholder so the layer check has a file; the engine lands in src/session/engine.ts
export {};
