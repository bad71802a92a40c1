import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The IAM service prefix of each AWS SDK client package the server may use. */
const SERVICES: Record<string, string> = {
  '@aws-sdk/client-cognito-identity-provider': 'cognito-idp',
  '@aws-sdk/client-cognito-identity': 'cognito-identity',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-sns': 'sns',
};

/** Functions of the product that make an AWS request without a command object: what each one sends. */
const REQUEST_FUNCTIONS: Record<string, string> = { presignGetObject: 's3:GetObject', getDownloadUrl: 's3:GetObject' };

/** SDK packages that send requests of their own choosing: code using them must be mapped here first. */
const UNMAPPED_PACKAGES = ['@aws-sdk/lib-storage', '@aws-sdk/s3-request-presigner', '@aws-sdk/s3-presigned-post'];

export interface FoundCall {
  call: string;
  file: string;
}

/**
 * The AWS calls a source file makes: every `new <X>Command(...)` whose class comes from an AWS SDK client
 * (named or namespace import), and every call of a product function that signs a request itself. Anything
 * from a client package this table does not know, or from a package that chooses its own requests, is
 * reported as `unknown:<package>` so that it cannot slip by.
 */
export function awsCallsIn(source: string, file = 'source.ts'): FoundCall[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const named = new Map<string, string>(); // local name → `<package>#<imported name>`
  const namespaces = new Map<string, string>(); // local namespace → package
  const found: FoundCall[] = [];

  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    if (statement.importClause?.isTypeOnly) continue;
    if (UNMAPPED_PACKAGES.includes(from)) found.push({ call: `unknown:${from}`, file });
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, from);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        if (element.isTypeOnly) continue;
        named.set(element.name.text, `${from}#${(element.propertyName ?? element.name).text}`);
      }
    }
  }

  const commandCall = (pkg: string, name: string) => {
    if (!name.endsWith('Command') || !pkg.startsWith('@aws-sdk/client-')) return;
    const service = SERVICES[pkg];
    found.push({ call: service ? `${service}:${name.slice(0, -'Command'.length)}` : `unknown:${pkg}`, file });
  };

  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node)) {
      const target = node.expression;
      if (ts.isIdentifier(target) && named.has(target.text)) {
        const [pkg, name] = named.get(target.text)!.split('#');
        commandCall(pkg, name);
      } else if (ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.expression) && namespaces.has(target.expression.text)) {
        commandCall(namespaces.get(target.expression.text)!, target.name.text);
      }
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && named.has(node.expression.text)) {
      const [, name] = named.get(node.expression.text)!.split('#');
      if (REQUEST_FUNCTIONS[name]) found.push({ call: REQUEST_FUNCTIONS[name], file });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every AWS call of the server's code: server/ and the review command (`npm run admin`), which runs with the server's role. */
export function serverAwsCalls(root: string): FoundCall[] {
  const files = [...sourceFiles(path.join(root, 'server')), path.join(root, 'scripts/admin.ts'), path.join(root, 'scripts/staffCommands.ts')];
  return files.flatMap((file) => awsCallsIn(readFileSync(file, 'utf8'), path.relative(root, file)));
}
