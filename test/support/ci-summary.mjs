// Prints vitest's JSON report as the closing line CI reads: "N passed, N failed, N skipped".
// Usage: ci-summary.mjs REPORT [EXIT_STATUS_OF_NPM_TEST]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [file, testStatus = '0'] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  // The build or the typecheck failed before vitest ran: say so in the same shape.
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}
// A file that failed without a failed test in it (it did not load, or its worker crashed
// mid-run) is one failure: the tests it did not finish are not "skipped".
const failedFiles = report.testResults.filter(
  (f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'),
).length;
let failed = report.numFailedTests + failedFiles;
// vitest exited non-zero for an error outside every test (an unhandled error): one failure, not a green line.
if (failed === 0 && testStatus !== '0') {
  console.error('vitest failed outside any test (an unhandled error, or lint/typecheck): see above');
  failed = 1;
}
// The ten slowest test files (a file in both test projects counts once per project).
const slowest = report.testResults
  .map((f) => ({ seconds: (f.endTime - f.startTime) / 1000, file: path.relative(process.cwd(), f.name) }))
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, 10);
console.log('== the ten slowest test files');
for (const { seconds, file } of slowest) console.log(`   ${seconds.toFixed(1).padStart(6)}s  ${file}`);
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`${report.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
