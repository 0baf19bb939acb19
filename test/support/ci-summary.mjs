// Prints vitest's JSON report as the closing line CI reads: "N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  // The build or the typecheck failed before vitest ran: say so in the same shape.
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}
const skipped = report.numPendingTests + report.numTodoTests;
// A file that failed to load counts as a failure even when it has no test in it.
const failedFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
console.log(`${report.numPassedTests} passed, ${report.numFailedTests + failedFiles} failed, ${skipped} skipped`);
process.exit(report.numFailedTests + failedFiles > 0 ? 1 : 0);
