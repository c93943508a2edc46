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
import { parseSync, visitorKeys } from "oxc-parser";

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

/** An ESTree node as oxc gives it: its kind, where it starts and ends in the text, and its fields. */
type AstNode = { type: string; start: number; end: number; [field: string]: unknown };

const isNode = (value: unknown): value is AstNode =>
  typeof value === "object" && value !== null && typeof (value as AstNode).type === "string";

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
/** Where a function is a method's, accessor's or field's value, the name is the key of what holds it. */
const NAMED_BY_KEY = new Set([
  "MethodDefinition",
  "Property",
  "PropertyDefinition",
  "TSAbstractMethodDefinition",
]);

/** What a reader would call the function: its own name, the name it is given, or the call it is passed to. */
function nameOf(node: AstNode, parent: AstNode | undefined, text: string): string {
  // An identifier by its name alone: its span takes in a type annotation (`record: MiddlewareHandler`).
  const textOf = (named: unknown) =>
    !isNode(named)
      ? ""
      : named.type === "Identifier"
        ? String(named.name)
        : text.slice(named.start, named.end);
  if (isNode(node.id)) return textOf(node.id);
  if (parent?.type === "VariableDeclarator") return textOf(parent.id);
  if (parent && NAMED_BY_KEY.has(parent.type)) return textOf(parent.key);
  if (parent?.type === "CallExpression" && isNode(parent.callee)) {
    const callee = parent.callee;
    const called = callee.type === "MemberExpression" ? textOf(callee.property) : textOf(callee);
    const first = (parent.arguments as unknown[])[0];
    const label = isNode(first) ? stringIn(first) : undefined;
    return `(passed to ${called}${label === undefined ? "" : ` ${label}`})`;
  }
  return "(anonymous)";
}

/** A string literal's or a plain template's text (`"checkout"`, `` `checkout` ``), else undefined. */
function stringIn(node: AstNode): string | undefined {
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    return (node.quasis as { value: { cooked: string } }[])[0]?.value.cooked ?? "";
  }
  return undefined;
}

/** The line (0-based) each offset of `text` is on. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
}

function longFunctionsOf(fileName: string): LongFunction[] {
  const text = readFileSync(fileName, "utf8");
  const { program, errors } = parseSync(fileName, text);
  if (errors.length > 0) throw new Error(`${fileName} does not parse: ${errors[0]?.message}`);
  const lineOf = lineFinder(text);
  const found: LongFunction[] = [];
  const visit = (node: AstNode, parent: AstNode | undefined) => {
    if (FUNCTIONS.has(node.type) && node.body) {
      // A method is measured from its name, as a reader sees it start, not from its parameters.
      const from = parent && NAMED_BY_KEY.has(parent.type) && parent.value === node ? parent : node;
      const start = lineOf(from.start);
      const lines = lineOf(node.end) - start + 1;
      if (lines > limit)
        found.push({ file: fileName, line: start + 1, lines, name: nameOf(node, parent, text) });
    }
    for (const key of visitorKeys[node.type] ?? []) {
      const child = node[key];
      for (const each of Array.isArray(child) ? child : [child]) if (isNode(each)) visit(each, node);
    }
  };
  visit(program as unknown as AstNode, undefined);
  return found;
}

const all = FOLDERS.flatMap(sourceFiles).flatMap(longFunctionsOf);
all.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
for (const fn of all) console.log(`${String(fn.lines).padStart(5)}  ${fn.file}:${fn.line}  ${fn.name}`);
console.log(`${all.length} functions over ${limit} lines in ${FOLDERS.join("/, ")}/ (tests left out)`);
