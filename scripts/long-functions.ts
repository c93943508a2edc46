/**
 * Lists every function, method and arrow function longer than a limit (80 lines unless given) in the shop's own
 * code (server/, web/, common/, scripts/), tests left out, longest first, with where it starts and how long it
 * is, and then their count. A function inside another is counted on its own as well.
 *
 *   npm run long-functions            the list and the count
 *   npm run long-functions -- 120     the same over 120 lines
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const FOLDERS = ["server", "web", "common", "scripts"];
const limit = Number(process.argv[2] ?? 80);
if (!Number.isInteger(limit) || limit < 1) {
  console.error(`The limit must be a whole number of lines, not "${process.argv[2]}".`);
  process.exit(2);
}

const isSource = (file: string) =>
  /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(folder, file))
    .filter(isSource)
    .sort();
}

type LongFunction = { file: string; line: number; lines: number; name: string };

/** What a reader would call the function: its own name, the name it is given, or the call it is passed to. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const called = ts.isPropertyAccessExpression(callee) ? callee.name.getText(file) : callee.getText(file);
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : "";
    return `(passed to ${called}${label})`;
  }
  return "(anonymous)";
}

function longFunctionsOf(fileName: string): LongFunction[] {
  const text = readFileSync(fileName, "utf8");
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) {
        found.push({
          file: fileName,
          line: start + 1,
          lines,
          name: nameOf(node as ts.FunctionLikeDeclaration, file),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const all = FOLDERS.flatMap(sourceFiles).flatMap(longFunctionsOf);
all.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
for (const fn of all) console.log(`${String(fn.lines).padStart(5)}  ${fn.file}:${fn.line}  ${fn.name}`);
console.log(`${all.length} functions over ${limit} lines in ${FOLDERS.join("/, ")}/ (tests left out)`);
