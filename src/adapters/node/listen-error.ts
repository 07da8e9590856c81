/**
 * The one line an operator can act on when a server cannot listen (no stack trace): which
 * port or address, and which variable to change. Shared by `npm run serve` and
 * `npm run serve:static`.
 */
export function listenErrorLine(error: NodeJS.ErrnoException, host: string, port: number, script: string): string {
  if (error.code === 'EADDRINUSE') return `Port ${port} is already in use on ${host}: stop what holds it, or set PORT to another port (e.g. PORT=${port === 65535 ? 4321 : port + 1} npm run ${script}).`;
  if (error.code === 'EACCES') return `No permission to listen on port ${port} on ${host}: set PORT to a port above 1023.`;
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return `Cannot listen on ${host}: set HOST to an address of this machine (e.g. 127.0.0.1 or 0.0.0.0).`;
  return `Cannot listen on ${host}:${port}: ${error.message}`;
}
