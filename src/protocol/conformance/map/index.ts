// The conformance map (docs/conformance.md): spec clauses x test citations. Pure text work.
export * from './clauses';
export * from './coverage';
export * from './owners';
export * from './render';
