// Figures the tests measure (activation time, command to diagnostics …), saved with the results.
// On globalThis: the runner and the tests are separate bundles that must share one object.
const shared = globalThis as { diffReviewFigures?: Record<string, number> };
export const figures: Record<string, number> = (shared.diffReviewFigures ??= {});
