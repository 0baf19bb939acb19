// The screenshots the in-host tests take (test-output/extension/screenshots/<name>.png), which
// extension/media/ and extension/README.md show.
export const SCREENSHOTS = [
  'problems-panel',
  'quick-fixes',
  'hover',
  'findings-view',
  'status-bar',
  'rule-description',
];
