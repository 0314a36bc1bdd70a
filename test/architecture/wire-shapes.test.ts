/**
 * No wire shape written twice (issue #27): every object shape the contract
 * declares (src/schemas/, zod) has that one home; an interface or object type
 * elsewhere in the tree with exactly the same members is a hand-written twin,
 * which drifts the day one side changes. Types derived from the contract
 * (`z.output<typeof X>`, `Pick<…>`, `Omit<…>`) are not written out, so they
 * are not found. Compared by member names, the part a twin copies.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./import-graph.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** Shapes this small (a pair such as `{ min, max }`) recur by nature, not by copying. */
const MIN_MEMBERS = 4;

/** What a member holds, coarsely: a list, a record, or a value (`?` where a written type names another type). */
type Kind = "array" | "object" | "value" | "?";

/** A shape as compared: its members' names with their kinds, sorted. */
const signature = (members: [string, Kind][]) =>
  members
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, kind]) => `${name}:${kind}`)
    .join(",");

function zodKind(schema: unknown): Kind {
  const def = (schema as z.ZodType)._zod.def as { type: string; innerType?: unknown; in?: unknown };
  if (def.type === "array") return "array";
  if (def.type === "object" || def.type === "record") return "object";
  if (def.innerType) return zodKind(def.innerType);
  if (def.type === "pipe" && def.in) return zodKind(def.in);
  return "value";
}

/** Every object schema a contract module exports, nested ones included, as its signature. */
async function contractShapes(): Promise<Map<string, string>> {
  const shapes = new Map<string, string>();
  const seen = new Set<unknown>();
  const visit = (schema: unknown, name: string): void => {
    if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
    seen.add(schema);
    const def = (schema as z.ZodType)._zod.def as { type: string; shape?: Record<string, unknown>; element?: unknown; innerType?: unknown; options?: unknown[]; in?: unknown; out?: unknown };
    if (def.type === "object" && def.shape) {
      const members = Object.entries(def.shape).map(([key, member]): [string, Kind] => [key, zodKind(member)]);
      if (members.length >= MIN_MEMBERS && !shapes.has(signature(members))) shapes.set(signature(members), name);
      for (const [key, member] of Object.entries(def.shape)) visit(member, `${name}.${key}`);
    }
    for (const inner of [def.element, def.innerType, def.in, def.out, ...(def.options ?? [])]) visit(inner, name);
  };
  for (const file of sourceFiles().filter((f) => f.startsWith("src/schemas/"))) {
    const module = (await import(path.join(ROOT, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) visit(value, `${file}:${name}`);
  }
  return shapes;
}

/** Interfaces and object type literals written out in a file, with their member names. */
export function writtenShapes(file: string, text: string): { where: string; keys: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { where: string; keys: string }[] = [];
  const kindOf = (type: ts.TypeNode | undefined): Kind => {
    if (!type) return "?";
    if (ts.isArrayTypeNode(type)) return "array";
    if (ts.isTypeLiteralNode(type) || ts.isMappedTypeNode(type)) return "object";
    if (ts.isUnionTypeNode(type)) {
      const kinds = new Set(type.types.filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword) && t.kind !== ts.SyntaxKind.UndefinedKeyword).map(kindOf));
      return kinds.size === 1 ? [...kinds][0]! : "?";
    }
    if (ts.isTypeReferenceNode(type)) {
      const name = type.typeName.getText(source);
      return name === "Array" || name === "ReadonlyArray" ? "array" : name === "Record" ? "object" : "?";
    }
    return "value";
  };
  const membersOf = (members: ts.NodeArray<ts.TypeElement>): [string, Kind][] =>
    members.filter((m): m is ts.PropertySignature => ts.isPropertySignature(m)).map((m) => [m.name.getText(source).replace(/^["']|["']$/g, ""), kindOf(m.type)]);
  const visit = (node: ts.Node): void => {
    let members: [string, Kind][] | null = null;
    if (ts.isInterfaceDeclaration(node) && !node.heritageClauses) members = membersOf(node.members);
    else if (ts.isTypeLiteralNode(node)) members = membersOf(node.members);
    if (members && members.length >= MIN_MEMBERS) found.push({ where: `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`, keys: signature(members) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether a written signature repeats a contract one: the same names, each of the same kind (a named type matches any). */
function repeats(written: string, contract: string): boolean {
  const a = written.split(",");
  const b = contract.split(",");
  return a.length === b.length && a.every((member, i) => {
    const [name, kind] = member.split(":");
    const [otherName, otherKind] = b[i]!.split(":");
    return name === otherName && (kind === "?" || kind === otherKind);
  });
}

/**
 * Shapes that share a contract shape's members without being a copy of it, each with the reason.
 * Keyed by file and the signature found there.
 */
const NOT_TWINS: Record<string, string> = {
  "simulator/interfaces.ts rxBytes:value,rxPackets:value,txBytes:value,txPackets:value": "a port's counters, which share the four names of a session's counters but count a port",
};

/** Written-out shapes elsewhere that repeat a contract shape. */
function twins(shapes: Map<string, string>, files: string[]): string[] {
  return files
    .filter((f) => !f.startsWith("src/schemas/") && !f.startsWith("test/"))
    .flatMap((file) => writtenShapes(file, readFileSync(path.join(ROOT, file), "utf8")))
    .filter((w) => !(`${w.where.split(":")[0]} ${w.keys}` in NOT_TWINS))
    .flatMap((w) => [...shapes].filter(([contract]) => repeats(w.keys, contract)).map(([contract, name]) => `${w.where} repeats ${name} ({ ${contract} }): import its type from the contract`));
}

describe("wire shapes", () => {
  it("are found when written out again, by their member names", () => {
    const text = "interface Pool { name: string; family: 4 | 6; size: number; used: number }\ntype Alias = { a: 1; b: 2; c: 3; d: 4 };\ninterface Short { name: string }";
    expect(writtenShapes("x.ts", text)).toEqual([
      { where: "x.ts:1", keys: "family:value,name:value,size:value,used:value" },
      { where: "x.ts:2", keys: "a:value,b:value,c:value,d:value" },
    ]);
    expect(repeats("a:value,b:?,c:array,d:value", "a:value,b:object,c:array,d:value")).toBe(true);
    expect(repeats("a:value,b:value,c:value,d:value", "a:value,b:value,c:array,d:value")).toBe(false);
  });

  it("have one home: nothing outside the contract writes a contract shape out again", async () => {
    expect(twins(await contractShapes(), sourceFiles())).toEqual([]);
  }, 60_000);
});
