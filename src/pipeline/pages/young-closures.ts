/**
 * A Vite plugin for Astro's compile (astro.config.mjs): in Astro's server runtime, each
 * function literal assigned to a property (`this.slotValues[name] = () => {…}`) is passed
 * through an identity function, `__eviYoung(() => {…})`: the same function.
 *
 * Why: V8 allocates a function literal assigned to a property in the old generation. Astro
 * makes one such closure per component with a slot, and its scope holds the page's rendered
 * markup and the view the page read. Old objects are roots of the young generation's
 * collections until a full collection finds them dead, so every page's data outlived the
 * page and was promoted: the page workers' heaps grew by much of what they rendered, and
 * the build's peak memory with them. Wrapped, the closure is allocated young and dies with
 * its page. The pages' bytes are the same.
 *
 * The rewrite is made on the syntax tree (Rollup's parser, which Vite hands the plugin), so
 * that nothing but the assignments' right-hand sides changes.
 */

/** ESTree nodes, as far as the rewrite reads them. */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const FUNCTION_LITERALS = new Set(['ArrowFunctionExpression', 'FunctionExpression']);

/**
 * The spans (start, end) of every function literal assigned to a property (`=`, `||=`, …: V8
 * allocates each old), in the order the tree is visited: a literal before the ones inside it
 * ({@link youngClosureSource} orders its edits itself).
 */
export function propertyFunctionLiterals(ast: Node): [number, number][] {
  const spans: [number, number][] = [];
  const visit = (node: Node): void => {
    if (node.type === 'AssignmentExpression') {
      const left = node.left as Node;
      const right = node.right as Node;
      if (left.type === 'MemberExpression' && FUNCTION_LITERALS.has(right.type)) spans.push([right.start, right.end]);
    }
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) visit(value);
    }
  };
  visit(ast);
  return spans;
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/** The identity function the literals are passed through (a name no module of Astro's uses; Rollup renames it if one does). */
export const YOUNG = '__eviYoung';

/**
 * `code` with each of `spans` (from {@link propertyFunctionLiterals}) written `__eviYoung(…)`,
 * and the function declared at its end (declarations are hoisted); null when there is none.
 * Not `(0, …)`: Rollup prints that back as `(…)`, and V8's parser sees through parentheses.
 */
export function youngClosureSource(code: string, spans: [number, number][]): string | null {
  if (spans.length === 0) return null;
  let out = '';
  let at = 0;
  // Nested literals (a function assigned to a property inside another one) are wrapped too: the edits are inserts only.
  const inserts = spans.flatMap(([start, end]) => [
    [start, `${YOUNG}(`],
    [end, ')'],
  ] as [number, string][]).sort((a, b) => a[0] - b[0]);
  for (const [pos, text] of inserts) {
    out += code.slice(at, pos) + text;
    at = pos;
  }
  return `${out}${code.slice(at)}\nfunction ${YOUNG}(f) {\n  return f;\n}\n`;
}

/** The modules rewritten: Astro's server runtime (the code every page's render goes through). */
export const ASTRO_RUNTIME = /[\\/]node_modules[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/].*\.js$/;

/** The plugin (Vite's, in Astro's `vite.plugins`). */
export function youngClosures() {
  return {
    name: 'evi:young-closures',
    transform(this: { parse: (code: string) => unknown }, code: string, id: string) {
      if (!ASTRO_RUNTIME.test(id.split('?')[0]!)) return null;
      const rewritten = youngClosureSource(code, propertyFunctionLiterals(this.parse(code) as Node));
      return rewritten === null ? null : { code: rewritten, map: null };
    },
  };
}
