// The conformance map (docs/conformance.md) and the clause catalogue (docs/protocol/clauses.md):
// our catalogue of the spec's clauses x test citations. Pure text work.
export * from './catalogue';
export * from './clauses';
export * from './coverage';
export * from './layers';
export * from './render';
