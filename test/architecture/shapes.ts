/**
 * Object shapes as the tree writes them out, read with the TypeScript
 * parser: interfaces, object type literals and `z.object({ … })` literals,
 * each as its members' names with a coarse kind (a list, a record, a value,
 * or `?` where the member names another type or schema, which could be
 * either). Compared by those, the part a hand-written twin copies; derived
 * shapes (`z.output<typeof X>`, `Pick<…>`, `X.extend(…)`) are not written
 * out, so they are never found.
 */
import ts from "typescript";

/**
 * What a member holds: a list, a record, a string, a number, a boolean, one
 * literal (as JSON: `"pppoe"`, `false`), another value, or `?` where it names
 * another type or schema (or a set of literals), which could be any of them.
 */
export type Kind = string;

/** A shape found in a file: where it starts and its signature. */
export interface Shape {
  where: string;
  keys: string;
}

/** The file a shape's `where` names. */
export const fileOf = (shape: Shape): string => shape.where.slice(0, shape.where.lastIndexOf(":"));

/** Shapes this small (a pair such as `{ min, max }`) recur by nature, not by copying. */
export const MIN_MEMBERS = 3;

/** A shape as compared: its members' names with their kinds, sorted. */
export const signature = (members: [string, Kind][]) =>
  members
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, kind]) => `${name}:${kind}`)
    .join(",");

/** A literal kind stands for one variant of a tagged union: only the same literal repeats it. */
const isLiteral = (kind: string) => kind.startsWith('"') || kind === "true" || kind === "false" || /^-?\d/.test(kind);

/** Whether two members' kinds agree: the same, or `?` and any but a literal. */
const sameKind = (kind: Kind, other: Kind) =>
  kind === other || ((kind === "?" || other === "?") && !isLiteral(kind) && !isLiteral(other));

/** A signature's members as name → kind. */
const membersOf = (keys: string): Map<string, Kind> =>
  new Map(keys.split(",").map((member) => member.split(":") as [string, Kind]));

/** Whether two signatures are one shape: the same names, each of the same kind (`?` matches any but a literal). */
export function sameShape(a: string, b: string): boolean {
  const left = a.split(",");
  const right = b.split(",");
  return (
    left.length === right.length &&
    left.every((member, i) => {
      const [name, kind] = member.split(":");
      const [otherName, otherKind] = right[i]!.split(":");
      return name === otherName && sameKind(kind!, otherKind!);
    })
  );
}

/** A contract shape this small is a few common names (`{ name, size, used }`): only a copy of it all is a twin. */
export const NEAR_TWIN_MIN_MEMBERS = 5;
/** The share of a contract shape's members that a hand-written subset of them must hold to be its near twin. */
export const NEAR_TWIN_SHARE = 0.8;

/**
 * Whether `written` is a near twin of `contract`: every member of it is one of the contract shape's, of the same
 * kind, and they are most of a large one (the contract's shape less a member or two, written out instead of
 * `Omit<…>`). One shape is not its own near twin: sameShape finds that.
 */
export function nearTwin(written: string, contract: string): boolean {
  const mine = membersOf(written);
  const theirs = membersOf(contract);
  return (
    theirs.size >= NEAR_TWIN_MIN_MEMBERS &&
    mine.size < theirs.size &&
    mine.size >= NEAR_TWIN_SHARE * theirs.size &&
    [...mine].every(([name, kind]) => theirs.has(name) && sameKind(kind, theirs.get(name)!))
  );
}

/** A literal's kind: its value as JSON. */
const literalKind = (literal: ts.Node): Kind =>
  ts.isStringLiteral(literal)
    ? JSON.stringify(literal.text)
    : ts.isNumericLiteral(literal)
      ? String(Number(literal.text))
      : literal.kind === ts.SyntaxKind.TrueKeyword
        ? "true"
        : literal.kind === ts.SyntaxKind.FalseKeyword
          ? "false"
          : "value";

/** The kind a zod expression builds: `z.array(…)`, `z.object(…)`, `z.record(…)`, a value, or `?` for a named schema. */
function zodKind(expression: ts.Expression, source: ts.SourceFile): Kind {
  // Peel the method chain (`.optional()`, `.nullable()`, `.meta(…)`) down to the builder call.
  let node: ts.Expression = expression;
  while (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isCallExpression(node.expression.expression)
  )
    node = node.expression.expression;
  while (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) &&
    node.expression.expression.text !== "z"
  )
    node = node.expression.expression;
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) return "?";
  if (!ts.isCallExpression(node)) return "value";
  const callee = node.expression.getText(source);
  if (callee === "z.array") return "array";
  if (/^z\.(object|record|strictObject|looseObject)$/.test(callee)) return "object";
  if (/^z\.(string|email|url|uuid|ipv4|ipv6|cidrv4|cidrv6|iso\.\w+)$/.test(callee)) return "string";
  if (/^z\.(number|int|int32|uint32|float64)$/.test(callee)) return "number";
  if (callee === "z.boolean") return "boolean";
  const [literal] = node.arguments;
  if (
    callee === "z.literal" &&
    literal &&
    (ts.isStringLiteral(literal) ||
      ts.isNumericLiteral(literal) ||
      literal.kind === ts.SyntaxKind.TrueKeyword ||
      literal.kind === ts.SyntaxKind.FalseKeyword)
  )
    return literalKind(literal);
  if (callee === "z.enum" || callee === "z.union" || callee === "z.discriminatedUnion") return "?";
  return "value";
}

/** Every shape written out in one file's text. */
export function writtenShapes(file: string, text: string): Shape[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Shape[] = [];
  const kindOf = (type: ts.TypeNode | undefined): Kind => {
    if (!type) return "?";
    if (ts.isArrayTypeNode(type)) return "array";
    if (ts.isTypeLiteralNode(type) || ts.isMappedTypeNode(type)) return "object";
    if (type.kind === ts.SyntaxKind.StringKeyword) return "string";
    if (type.kind === ts.SyntaxKind.NumberKeyword) return "number";
    if (type.kind === ts.SyntaxKind.BooleanKeyword) return "boolean";
    if (ts.isLiteralTypeNode(type)) return literalKind(type.literal);
    if (ts.isUnionTypeNode(type)) {
      const kinds = new Set(
        type.types
          .filter(
            (t) =>
              !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword) &&
              t.kind !== ts.SyntaxKind.UndefinedKeyword,
          )
          .map(kindOf),
      );
      return kinds.size === 1 ? [...kinds][0]! : "?";
    }
    if (ts.isTypeReferenceNode(type)) {
      const name = type.typeName.getText(source);
      return name === "Array" || name === "ReadonlyArray" ? "array" : name === "Record" ? "object" : "?";
    }
    return "value";
  };
  const typeMembers = (members: ts.NodeArray<ts.TypeElement>): [string, Kind][] =>
    members
      .filter((m): m is ts.PropertySignature => ts.isPropertySignature(m))
      .map((m) => [m.name.getText(source).replace(/^["']|["']$/g, ""), kindOf(m.type)]);
  /** A `z.object({ … })` literal's members; null when a spread or computed key leaves them unknown. */
  const zodMembers = (literal: ts.ObjectLiteralExpression): [string, Kind][] | null => {
    const members: [string, Kind][] = [];
    for (const property of literal.properties) {
      if (ts.isPropertyAssignment(property) && !ts.isComputedPropertyName(property.name))
        members.push([
          property.name.getText(source).replace(/^["']|["']$/g, ""),
          zodKind(property.initializer, source),
        ]);
      else if (ts.isShorthandPropertyAssignment(property)) members.push([property.name.text, "?"]);
      else return null;
    }
    return members;
  };
  const visit = (node: ts.Node): void => {
    let members: [string, Kind][] | null = null;
    if (ts.isInterfaceDeclaration(node) && !node.heritageClauses) members = typeMembers(node.members);
    else if (ts.isTypeLiteralNode(node)) members = typeMembers(node.members);
    else if (
      ts.isCallExpression(node) &&
      /^z\.(object|strictObject|looseObject)$/.test(node.expression.getText(source)) &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0])
    ) {
      members = zodMembers(node.arguments[0]);
    }
    if (members && members.length >= MIN_MEMBERS)
      found.push({
        where: `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`,
        keys: signature(members),
      });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Pairs of shapes written out twice: the second of each pair repeats the first (in the order given); a shape written
 * three times makes three pairs.
 */
export function repeatedShapes(shapes: Shape[]): [Shape, Shape][] {
  const byNames = new Map<string, Shape[]>();
  for (const shape of shapes) {
    const names = shape.keys.replace(/:[^,]+/g, "");
    byNames.set(names, [...(byNames.get(names) ?? []), shape]);
  }
  const pairs: [Shape, Shape][] = [];
  for (const group of byNames.values()) {
    group.forEach((shape, i) => {
      for (const earlier of group.slice(0, i)) if (sameShape(earlier.keys, shape.keys)) pairs.push([earlier, shape]);
    });
  }
  return pairs;
}
