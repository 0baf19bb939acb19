// The setup form's choice, checked before anything connects: errors name the field to fix.
import { isLoopbackAddress } from '../../service/http/loopback-address.ts';
import type { ConnectionChoice } from '../shared/ipc-contract.ts';
import { InvalidInputError } from './ipc-errors.ts';

/** The error code of a cleartext address the user has not confirmed; the form then asks. */
export const CLEARTEXT_CODE = 'cleartext';

/** True for a host name (as URL.hostname gives it) that can only be this machine. */
export const isLoopbackHost = (hostname: string): boolean => isLoopbackAddress(hostname);

/** The choice, cleaned (trimmed, no trailing slash), or InvalidInputError naming the field. */
export function validateChoice(choice: ConnectionChoice): ConnectionChoice {
  if (!choice || (choice.mode !== 'built-in' && choice.mode !== 'remote'))
    throw new InvalidInputError('Choose how to connect.');
  if (choice.mode === 'built-in') return { mode: 'built-in' };
  const raw = typeof choice.url === 'string' ? choice.url.trim() : '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError("Enter the service's address, e.g. http://127.0.0.1:7411.", 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidInputError('The address must start with http:// or https://.', 'url');
  const token = typeof choice.dashboardToken === 'string' ? choice.dashboardToken.trim() : '';
  if (!token) throw new InvalidInputError('Enter the dashboard token.', 'dashboardToken');
  // The dashboard token manages every token of the service: anyone on the network path could read
  // it from a cleartext request. Loopback traffic never leaves this machine.
  const cleartext = url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  if (cleartext && choice.allowCleartext !== true) {
    throw new InvalidInputError(
      `http:// would send the dashboard token unencrypted to ${url.host}, where anyone on the network can read it. Use https://, or confirm that this network is trusted.`,
      'url',
      CLEARTEXT_CODE,
    );
  }
  // The confirmation travels with the choice, to be saved with it (asked again if it was not).
  return {
    mode: 'remote',
    url: url.href.replace(/\/+$/, ''),
    dashboardToken: token,
    ...(cleartext ? { allowCleartext: true } : {}),
  };
}
