// Forgetting a workspace is the domain's (src/domain/forget-workspace.ts); kept here for the Slack
// function's import until its entry is reworked (issue 24, the lean Slack function).
export { forgetWorkspace, isServedByAnInstall, type ForgottenWorkspace } from './domain/forget-workspace.ts';
