// The setup form's choice, checked before anything connects: errors name the field to fix.
import type { ConnectionChoice } from '../shared/ipc-contract.ts';
import { InvalidInputError } from './ipc-errors.ts';

/** The choice, cleaned (trimmed, no trailing slash), or InvalidInputError naming the field. */
export function validateChoice(choice: ConnectionChoice): ConnectionChoice {
  if (!choice || (choice.mode !== 'built-in' && choice.mode !== 'remote')) throw new InvalidInputError('Choose how to connect.');
  if (choice.mode === 'built-in') return { mode: 'built-in' };
  const raw = typeof choice.url === 'string' ? choice.url.trim() : '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError('Enter the service\'s address, e.g. http://127.0.0.1:7411.', 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidInputError('The address must start with http:// or https://.', 'url');
  const token = typeof choice.dashboardToken === 'string' ? choice.dashboardToken.trim() : '';
  if (!token) throw new InvalidInputError('Enter the dashboard token.', 'dashboardToken');
  return { mode: 'remote', url: url.href.replace(/\/+$/, ''), dashboardToken: token };
}
