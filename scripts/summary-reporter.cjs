// Mocha's spec reporter plus the one plain closing line CI reads: `tests: N passed, N failed`.
// Pending (skipped) tests are counted and named, never folded into "passed".
'use strict';
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats || {};
      const skipped = s.pending ? `, ${s.pending} skipped` : '';
      // Printed after the spec epilogue so it is the last line of the run.
      process.nextTick(() => console.log(`tests: ${s.passes || 0} passed, ${s.failures || 0} failed${skipped}`));
    });
  }
}
module.exports = SummaryReporter;
