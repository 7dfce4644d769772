// The conformance checker behind `rawp validate`: pure, fed line by line.
export * from './codes';
export * from './problem';
export { StreamValidator, validateText, formatText, formatJson } from './validator';
