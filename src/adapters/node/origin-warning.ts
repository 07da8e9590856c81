/**
 * The one line `npm run serve` logs when the build it serves was made for a local origin
 * other than the one it listens on: every absolute link of the pages and of the API's
 * answers (`permalink`, `apiUrl`) would lead to that other port. A build for a public
 * origin served on a local address is the usual setup behind a proxy, and says nothing.
 */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

const isLocal = (hostname: string): boolean => LOCAL_HOSTS.has(hostname) || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/**
 * Null when the build's `siteUrl` fits the address served, else the warning.
 * @example originWarning('http://localhost:4321', 'http://127.0.0.1:4601') // 'The build …'
 * @example originWarning('https://evi.example', 'http://127.0.0.1:4321') // null
 */
export function originWarning(siteUrl: string, servedUrl: string): string | null {
  let site: URL;
  let served: URL;
  try {
    site = new URL(siteUrl);
    served = new URL(servedUrl);
  } catch {
    return null;
  }
  if (!isLocal(site.hostname)) return null;
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  if (port(site) === port(served) && site.protocol === served.protocol) return null;
  return (
    `Warning: this build was made for ${site.origin} but is served at ${served.origin}; its links and the API's permalinks point at ${site.origin}. ` +
    `Serve it on port ${port(site)}, or rebuild with SITE_URL=${served.origin.replace('127.0.0.1', 'localhost')} npm run build.`
  );
}
