import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The rooms of `src/slack/features/` use each other only where docs/architecture.md's room map says,
 * with its reason: a runtime import of another room that the map does not name fails here, and so does
 * a row of the map that the code no longer has. Type-only imports are not counted (they load nothing).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const FEATURES = 'src/slack/features';

/** The project files a file imports at runtime: type-only imports and exports left out. */
function runtimeImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          named &&
          ts.isNamedImports(named) &&
          named.elements.every((e) => e.isTypeOnly));
      if (!onlyTypes) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)));
}

const roomOf = (file: string) =>
  file.startsWith(`${FEATURES}/`) ? file.slice(FEATURES.length + 1).split('/')[0] : undefined;

const roomFiles = () =>
  readdirSync(join(ROOT, FEATURES), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(FEATURES, file));

/** Every runtime import of a room's file from another room: `{ file, target }`. */
function importsBetweenRooms() {
  return roomFiles().flatMap((file) =>
    runtimeImportsOf(file)
      .filter((target) => roomOf(target) !== undefined && roomOf(target) !== roomOf(file))
      .map((target) => ({ file, target })),
  );
}

/** `room → rooms it imports at runtime`, from the code. */
function roomsUsed(): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  for (const { file, target } of importsBetweenRooms()) {
    const [room, other] = [roomOf(file)!, roomOf(target)!];
    used.set(room, (used.get(room) ?? new Set()).add(other));
  }
  return used;
}

/** Runtime imports between rooms at most: past it, a room is doing another's work. */
const IMPORTS_BETWEEN_ROOMS_AT_MOST = 10;

/** The room map's rows in docs/architecture.md: `| \`room\` | \`a\`, \`b\` | why |`. */
function roomsDocumented(markdown: string): Map<string, Set<string>> {
  const section = markdown.split('## Rooms')[1]?.split('\n## ')[0] ?? '';
  const table = section.slice(section.indexOf('| room | uses | why |'));
  const rows = table
    .split('\n')
    .slice(2)
    .filter((line) => line.startsWith('| `'));
  return new Map(
    rows.map((row) => {
      const [room, uses] = row
        .split('|')
        .slice(1, 3)
        .map((cell) => [...cell.matchAll(/`([\w-]+)`/g)].map((m) => m[1]!));
      return [room![0]!, new Set(uses)];
    }),
  );
}

function asSorted(map: Map<string, Set<string>>): Record<string, string[]> {
  const rooms = [...map.keys()].sort();
  return Object.fromEntries(rooms.map((room) => [room, [...(map.get(room) ?? [])].sort()]));
}

describe('the room map', () => {
  it('names every room another room imports at runtime, and nothing the code does not do', () => {
    const documented = roomsDocumented(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
    expect(documented.size).toBeGreaterThan(0);
    expect(asSorted(roomsUsed())).toEqual(asSorted(documented));
  });

  it('has every room show a face, and rooms meet only there, seldom', () => {
    const rooms = readdirSync(join(ROOT, FEATURES));
    expect(rooms.filter((room) => !existsSync(join(ROOT, FEATURES, room, 'index.ts')))).toEqual([]);
    const imports = importsBetweenRooms();
    expect(imports.filter(({ target }) => !target.endsWith('/index.ts'))).toEqual([]);
    expect(imports.length).toBeLessThanOrEqual(IMPORTS_BETWEEN_ROOMS_AT_MOST);
  });

  it('reads a runtime import and leaves a type-only one out (the check itself)', () => {
    const imports = runtimeImportsOf('src/slack/features/home/views.ts');
    expect(imports).toContain('src/slack/features/plan/index.ts');
    const typeOnly = runtimeImportsOf('src/slack/kit/worker-deps.ts');
    expect(typeOnly).toEqual([]);
  });
});
