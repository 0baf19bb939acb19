// Security misconfigurations a reviewer flags in a pull request, one family per file.
import { noActionsScriptInjection, noPullRequestTargetCheckout } from './actions-injection.ts';
import { noPipeToShell, noPrivilegedContainer, noWorldWritable } from './container-host.ts';
import { noCorsAnyOriginWithCredentials } from './cors.ts';
import { noDebugInProduction } from './debug-mode.ts';
import { noJwtVerifyOff } from './jwt-verification.ts';
import { noSqlStringBuilding } from './sql-string-building.ts';
import { noTlsVerifyOff } from './tls-verification.ts';

export const misconfigurationRules = [
  noTlsVerifyOff,
  noSqlStringBuilding,
  noActionsScriptInjection,
  noPullRequestTargetCheckout,
  noPrivilegedContainer,
  noPipeToShell,
  noWorldWritable,
  noCorsAnyOriginWithCredentials,
  noDebugInProduction,
  noJwtVerifyOff,
];
