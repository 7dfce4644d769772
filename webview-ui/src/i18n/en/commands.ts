// English words of the commands the host itself publishes and of the host's notices
// (x-rawp.notice `words`): one table for every reader, in src/protocol/hostPhrases.ts, so the
// view, `rawp run` and `rawp attach` say the same (hostWords.test.ts holds the commands' entries to
// the host's published descriptions, word for word).
export { HOST_PHRASES_EN as commands } from '../../../../src/protocol/hostPhrases';
