// The agent-adapter interface adapters implement. It is defined in the session layer, which
// drives adapters (DESIGN.md: arrows point downwards), and re-exported here unchanged.
export * from '../session/agentAdapter';
