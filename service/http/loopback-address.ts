// Whether an address or host name can only be this machine. Its own module (node:net only), so
// the desktop app's main process can use it without pulling in the HTTP layer.
import net from 'node:net';

export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (!net.isIPv6(bare)) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  return mapped
    ? mapped[1]!.startsWith('127.')
    : new net.SocketAddress({ address: bare, family: 'ipv6' }).address === '::1';
}
