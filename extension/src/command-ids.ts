// The command ids, as package.json contributes them.
export const COMMANDS = {
  review: 'diffReview.reviewChanges',
  clear: 'diffReview.clearComments',
  setToken: 'diffReview.setToken',
  signOut: 'diffReview.signOut',
  showLog: 'diffReview.showLog',
  chooseBaseBranch: 'diffReview.chooseBaseBranch',
  ignoreFinding: 'diffReview.ignoreFinding',
  suppressWithReason: 'diffReview.suppressWithReason',
  turnOffRule: 'diffReview.turnOffRule',
  showRuleDescription: 'diffReview.showRuleDescription',
  groupFindingsBy: 'diffReview.groupFindingsBy',
  /** VS Code's own command for the findings view (every view has one). */
  focusFindings: 'diffReview.findings.focus',
} as const;
