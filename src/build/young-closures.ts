/**
 * A Vite plugin for Astro's compile (astro.config.mjs): in Astro's server runtime, a
 * function literal assigned to a property (`this.slotValues[name] = () => {…}`) is passed
 * through an identity function (`__eviYoung(() => {…})`): the same function, made by an
 * expression V8 does not single out.
 *
 * Why: V8's parser marks a function literal that is assigned to a property as one to
 * allocate in the old generation ("so it can be added as a constant function property", in
 * its own words). A closure made that way for each component with a slot (Astro's
 * `AstroComponentInstance`: one a page, for the layout) is old from birth, and its scope is
 * young: the slot's rendered template and, through the page's slot function, everything the
 * page read (its parsed view, its strings). Old objects are roots of V8's scavenges until a
 * full collection finds them dead, so each page's data survived the scavenges after it and
 * was promoted. One thread rendering the 10,000 reference profiles (bench/page-worker-gc.ts,
 * three runs each way, alternated): 528-659 MB promoted and 2.2-3.0 s of scavenges before,
 * 32-34 MB and 0.37-0.41 s with this plugin; the thread's CPU a median of 13.0 s before,
 * 5.8 s with it (BENCHMARKS.md, "Build: the layout's slot closure made young"). The pages'
 * bytes are the same.
 *
 * The rewrite is done on the syntax tree (Rollup's parser, which Vite hands the plugin), so
 * it changes nothing but the assignments' right-hand sides. The closure keeps no inferred
 * name for stack traces (an arrow or anonymous function assigned to a property gets no
 * `name` either way: the language names functions assigned to variables, not to properties).
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
