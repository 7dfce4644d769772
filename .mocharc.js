// Mocha's config `spec` is merged with the files named on the command line, so `npx mocha one.test.ts`
// used to run the whole suite as well. The default spec applies only when no test file is named.
const named = process.argv.slice(2).some((a) => /\.test\.[cm]?[jt]sx?$/.test(a) || a.startsWith('test/'));
module.exports = {
  // streamCheck: every stream a test records (EngineHarness, TestMaster) must pass rawp validate (issue 14).
  require: ['tsx/cjs', './test/support/streamCheck.ts', './test/support/englishLocale.ts'],
  spec: named ? [] : ['test/unit/**/*.test.ts', 'test/security/**/*.test.ts'],
  reporter: './scripts/summary-reporter.cjs',
  timeout: 30000,
  exit: true,
};
