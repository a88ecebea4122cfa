import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * Every use case has one shape, so a reader who knows one knows all of them:
 * `core/<context>/<verb>-<thing>.use-case.ts` holds exactly one class, exported, with one
 * `execute`, whose constructor takes one parameter `deps` typed as `Pick<…Deps, …>` of a type
 * imported from the context's aggregate file `./<context>-deps`. A class with an `execute`
 * method outside such a file is a use case under another name.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const CORE = join(ROOT, 'core');

/**
 * Files that do not have the shape yet, each to be removed from this list when it is reshaped:
 * the two delivery loops are being rewritten as one; the rest
 * still hold two classes or type their settings inline, outside their context's Deps.
 */
const RESHAPING = new Set([
  'core/ai/report-overage.use-case.ts',
  'core/email/deliver-due-emails.use-case.ts',
  'core/ai/system-settings.use-case.ts',
  'core/organizations/organization-settings.use-case.ts',
  'core/organizations/set-member-status.use-case.ts',
  'core/email/prune-sent-emails.use-case.ts',
  'core/jobs/prune-expired-sessions.use-case.ts',
  'core/mfa/prune-expired-challenges.use-case.ts',
]);

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

const classesOf = (source: ts.SourceFile) => source.statements.filter(ts.isClassDeclaration);

const hasExecute = (node: ts.ClassDeclaration) =>
  node.members.filter((member) => ts.isMethodDeclaration(member) && member.name.getText() === 'execute').length;

/** The problems of one use-case file, empty when it has the shape. */
export function useCaseProblems(file: string, source: ts.SourceFile): string[] {
  const problems: string[] = [];
  const name = basename(file);
  const context = basename(join(file, '..'));
  if (!/^[a-z]+(-[a-z0-9]+)*\.use-case\.ts$/.test(name)) problems.push('is not named <verb>[-<thing>].use-case.ts');
  const classes = classesOf(source);
  if (classes.length !== 1) return [...problems, `holds ${classes.length} classes, not one`];
  const useCase = classes[0]!;
  if (!useCase.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) problems.push('does not export its class');
  if (hasExecute(useCase) !== 1) problems.push(`has ${hasExecute(useCase)} execute methods, not one`);
  const constructor = useCase.members.find(ts.isConstructorDeclaration);
  const [deps, ...others] = constructor?.parameters ?? [];
  if (!deps || others.length > 0 || deps.name.getText() !== 'deps') return [...problems, 'constructor does not take one `deps`'];
  // `Pick<XDeps, …>`, or an intersection of it with `Partial<Pick<XDeps, …>>` for optional ports.
  const pickedFrom = (node: ts.TypeNode): string | null => {
    if (!ts.isTypeReferenceNode(node)) return null;
    const [argument] = node.typeArguments ?? [];
    if (node.typeName.getText() === 'Partial' && argument) return pickedFrom(argument);
    return node.typeName.getText() === 'Pick' && argument && ts.isTypeReferenceNode(argument) ? argument.typeName.getText() : null;
  };
  const members = deps.type && ts.isIntersectionTypeNode(deps.type) ? [...deps.type.types] : deps.type ? [deps.type] : [];
  const sources = new Set(members.map(pickedFrom));
  const picked = sources.size === 1 ? [...sources][0] : null;
  if (!picked || !picked.endsWith('Deps')) return [...problems, '`deps` is not typed as Pick<…Deps, …>'];
  const aggregate = `./${context}-deps`;
  const imported = source.statements.some(
    (statement) =>
      ts.isImportDeclaration(statement) &&
      (statement.moduleSpecifier as ts.StringLiteral).text === aggregate &&
      statement.importClause?.getText().match(new RegExp(`\\b${picked}\\b`)),
  );
  if (!imported) problems.push(`${picked} is not imported from ${aggregate}`);
  return problems;
}

describe('use-case shape', () => {
  const files = sourceFiles(CORE).map((file) => ({ file, path: relative(ROOT, file).split('\\').join('/') }));

  test('every use-case file has the one shape', () => {
    const problems = files
      .filter(({ path }) => path.endsWith('.use-case.ts') && !RESHAPING.has(path))
      .flatMap(({ file, path }) => useCaseProblems(file, parse(file)).map((problem) => `${path} ${problem}`));
    expect(problems).toEqual([]);
  });

  test('a class with an execute method lives in a use-case file', () => {
    const misplaced = files
      .filter(({ path }) => !path.endsWith('.use-case.ts') && !RESHAPING.has(path))
      .filter(({ file }) => classesOf(parse(file)).some((node) => hasExecute(node) > 0))
      .map(({ path }) => path);
    expect(misplaced).toEqual([]);
  });

  test.each([
    ['two classes', `import type { XDeps } from './x-deps';\nexport class A { constructor(private readonly deps: Pick<XDeps, 'a'>) {} execute() {} }\nexport class B {}`],
    ['no execute', `import type { XDeps } from './x-deps';\nexport class A { constructor(private readonly deps: Pick<XDeps, 'a'>) {} run() {} }`],
    ['an inline deps type', `export class A { constructor(private readonly deps: { a: number }) {} execute() {} }`],
    ['the whole aggregate', `import type { XDeps } from './x-deps';\nexport class A { constructor(private readonly deps: XDeps) {} execute() {} }`],
    ['an Omit', `import type { XDeps } from './x-deps';\nexport class A { constructor(private readonly deps: Omit<XDeps, 'a'>) {} execute() {} }`],
    ['a Pick of another file', `import type { XDeps } from './other';\nexport class A { constructor(private readonly deps: Pick<XDeps, 'a'>) {} execute() {} }`],
    ['an intersection of two aggregates', `import type { XDeps } from './x-deps';\nimport type { YDeps } from './y-deps';\nexport class A { constructor(private readonly deps: Pick<XDeps, 'a'> & Pick<YDeps, 'b'>) {} execute() {} }`],
    ['two parameters', `import type { XDeps } from './x-deps';\nexport class A { constructor(private readonly deps: Pick<XDeps, 'a'>, b: number) {} execute() {} }`],
  ])('refuses %s', (_, text) => {
    const file = join(CORE, 'x', 'do-thing.use-case.ts');
    expect(useCaseProblems(file, ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))).not.toEqual([]);
  });

  test('accepts the shape', () => {
    const file = join(CORE, 'x', 'do-thing.use-case.ts');
    const text = `import type { XDeps } from './x-deps';\nexport class DoThing { constructor(private readonly deps: Pick<XDeps, 'a'>) {} async execute() {} }`;
    expect(useCaseProblems(file, ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))).toEqual([]);
  });

  test('refuses a misnamed file', () => {
    const file = join(CORE, 'x', 'Do_Thing.use-case.ts');
    const text = `import type { XDeps } from './x-deps';\nexport class DoThing { constructor(private readonly deps: Pick<XDeps, 'a'>) {} async execute() {} }`;
    expect(useCaseProblems(file, ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true))).toEqual(['is not named <verb>[-<thing>].use-case.ts']);
  });
});
