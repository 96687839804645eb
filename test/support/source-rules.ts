/**
 * Checks over a subgraph's source files, for the unit tests that keep its house in order
 * (docs/architecture.md): import cycles (type imports included), SQL outside repositories.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The TypeScript files under `root` (fixtures and tests left out unless `tests`). */
export function sourceFiles(root: string, tests = false): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules' && name !== 'fixtures') walk(path);
      } else if (path.endsWith('.ts') && (tests || !path.endsWith('.test.ts'))) {
        found.push(path);
      }
    }
  };
  walk(root);
  return found.sort();
}

/** The files `file` imports relatively (type imports and re-exports included). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => resolve(dirname(file), fileName).replace(/\.js$/, '.ts'))
    .filter((path) => existsSync(path));
}

/**
 * Every import cycle under `root` (its strongly connected components of more than one file),
 * each as paths relative to `root`, sorted.
 */
export function importCycles(root: string): string[][] {
  const files = sourceFiles(root);
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

/** An entity and the repository it binds (`@Entity({ repository: () => XRepository })`). */
export function isEntityWithItsRepository(cycle: readonly string[]): boolean {
  return (
    cycle.length === 2 &&
    cycle[0]!.endsWith('.entity.ts') &&
    cycle[1] === cycle[0]!.replace(/\.entity\.ts$/, '.repository.ts')
  );
}

/** Text that reads as a SQL statement, not as prose. */
const SQL =
  /\b(select\s[\s\S]*\bfrom\s|insert\s+into\s|update\s+[\w."]+\s+set\s|delete\s+from\s|nextval\s*\(|on\s+conflict\s)/i;

/** Every string or template literal under `root` that holds SQL, as `file:line`. */
export function sqlStrings(root: string, allowed: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(root)) {
    const path = relative(root, file);
    if (allowed(path)) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isStringLiteral(node) ||
          ts.isNoSubstitutionTemplateLiteral(node) ||
          ts.isTemplateExpression(node)) &&
        SQL.test(node.getText(source))
      ) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${path}:${line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Where SQL may be written: repositories and migrations. */
export const isSqlHome = (path: string): boolean =>
  path.endsWith('.repository.ts') || path.startsWith('migrations/');
