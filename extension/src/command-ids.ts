// The command ids, as package.json contributes them.
export const COMMANDS = {
  review: 'diffReview.reviewChanges',
  clear: 'diffReview.clearComments',
  setToken: 'diffReview.setToken',
  signOut: 'diffReview.signOut',
  showLog: 'diffReview.showLog',
  chooseBaseBranch: 'diffReview.chooseBaseBranch',
} as const;
