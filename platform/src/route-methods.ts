/**
 * Which methods each path of a service answers, collected from the routes fastify registers (its
 * onRoute hook), so that a known path asked with another method is a 405 naming them (RFC 9110
 * 15.5.6) rather than a 404. Patterns are fastify's: `:name` is one non-empty segment, `*` the
 * rest of the path.
 */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const rank = (method: string) => {
  const at = ORDER.indexOf(method);
  return at < 0 ? ORDER.length : at;
};

function matches(pattern: readonly string[], path: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    if (part === '*') return true;
    const segment = path[i];
    if (segment === undefined) return false;
    if (part.startsWith(':') ? segment === '' : part !== segment) return false;
  }
  return pattern.length === path.length;
}

export class RouteMethods {
  private readonly routes = new Map<string, { pattern: string[]; methods: Set<string> }>();

  add(url: string, method: string | readonly string[]): void {
    const entry = this.routes.get(url) ?? { pattern: url.split('/'), methods: new Set<string>() };
    for (const one of typeof method === 'string' ? [method] : method) {
      entry.methods.add(one.toUpperCase());
      // fastify answers HEAD on every GET route (exposeHeadRoutes).
      if (one.toUpperCase() === 'GET') entry.methods.add('HEAD');
    }
    this.routes.set(url, entry);
  }

  /** The methods of the routes `path` (no query) falls under, in a fixed order; null if none. */
  allowOf(path: string): string[] | null {
    const segments = path.split('/');
    const methods = new Set<string>();
    for (const { pattern, methods: own } of this.routes.values()) {
      if (matches(pattern, segments)) for (const method of own) methods.add(method);
    }
    if (methods.size === 0) return null;
    return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }
}
