/**
 * No wire shape written twice (issue #27): every object shape the contract
 * declares (src/schemas/, zod) has that one home. Found as a failure:
 * - a shape written out elsewhere in the tree (an interface, an object type,
 *   a `z.object` literal) with the same members of the same kinds as one the
 *   contract exports, nested and derived ones included (read by loading the
 *   contract's modules);
 * - a near twin (issue #48): a shape written out elsewhere whose members are
 *   most (80 % or more) of a contract shape's of five or more, each of the
 *   same kind, the contract's shape less a member or two;
 * - a shape written out twice where one of the two is the contract's own
 *   text, inside the contract too (read with the TypeScript parser, so a
 *   `z.object` literal repeated in two sections is found before anything
 *   runs).
 * Types derived from the contract (`z.output<typeof X>`, `Pick<…>`,
 * `Omit<…>`) are not written out, so they are not found; `import type` from
 * the contract is the fix either finding asks for.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./import-graph.ts";
import {
  MIN_MEMBERS,
  fileOf,
  nearTwin,
  repeatedShapes,
  sameShape,
  signature,
  writtenShapes,
  type Kind,
} from "./shapes.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const FIXTURE = path.join(import.meta.dirname, "fixtures", "written-twice");
const isContract = (file: string) => file.startsWith("src/schemas/");

/** A member's kind as its zod schema builds it (the same kinds as shapes.ts reads from the text). */
function zodKind(schema: unknown): Kind {
  const def = (schema as z.ZodType)._zod.def as { type: string; innerType?: unknown; in?: unknown; values?: unknown[] };
  if (def.type === "array") return "array";
  if (def.type === "object" || def.type === "record") return "object";
  if (def.type === "string" || def.type === "number" || def.type === "boolean") return def.type;
  if (def.type === "literal" && def.values?.length === 1) return JSON.stringify(def.values[0]);
  if (def.type === "enum" || def.type === "union") return "?";
  if (def.innerType) return zodKind(def.innerType);
  if (def.type === "pipe" && def.in) return zodKind(def.in);
  return "value";
}

/** Every object schema the contract's modules export, nested and derived ones included, as its signature. */
async function contractShapes(root: string, files: string[]): Promise<Map<string, string>> {
  const shapes = new Map<string, string>();
  const seen = new Set<unknown>();
  const visit = (schema: unknown, name: string): void => {
    if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
    seen.add(schema);
    const def = (schema as z.ZodType)._zod.def as {
      type: string;
      shape?: Record<string, unknown>;
      element?: unknown;
      innerType?: unknown;
      options?: unknown[];
      in?: unknown;
      out?: unknown;
    };
    if (def.type === "object" && def.shape) {
      const members = Object.entries(def.shape).map(([key, member]): [string, Kind] => [key, zodKind(member)]);
      if (members.length >= MIN_MEMBERS && !shapes.has(signature(members))) shapes.set(signature(members), name);
      for (const [key, member] of Object.entries(def.shape)) visit(member, `${name}.${key}`);
    }
    for (const inner of [def.element, def.innerType, def.in, def.out, ...(def.options ?? [])]) visit(inner, name);
  };
  for (const file of files.filter(isContract)) {
    const module = (await import(path.join(root, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) visit(value, `${file}:${name}`);
  }
  return shapes;
}

/**
 * Shapes that share a contract shape's members without being a copy of it, each with the reason.
 * Keyed by file and the signature found there.
 */
const NOT_TWINS: Record<string, string> = {
  "simulator/interfaces.ts rxBytes:number,rxPackets:number,txBytes:number,txPackets:number":
    "a port's counters, which share the four names of a session's counters but count a port",
  "simulator/profile.ts icmp:number,tcpEstablished:number,tcpTransitory:number,udp:number":
    "the profile file's own rule for a CGN group's timeouts (whole seconds above " +
    "zero), a document the model validates when it loads one; the API's are counts " +
    "that may be zero",
  "simulator/routing.ts announce:boolean,distance:number,nextHop:string,prefix:string,vrf:string":
    "the routing model's static route, read from the configuration's items (src/config/routing.ts): a discard " +
    "route's nextHop is null where the configuration writes `blackhole`, the distance defaulted, no description",
  'ui/webauthn.ts id:string,transports:array,type:"public-key"':
    "the browser's PublicKeyCredentialDescriptor as the WebAuthn API names it; the " +
    "UI's own file, left to the web UI's issue (#24)",
};

/** Every written shape of the tree's files (tests excepted), read from `root`. */
const written = (root: string, files: string[]) =>
  files
    .filter((f) => !f.startsWith("test/"))
    .flatMap((file) => writtenShapes(file, readFileSync(path.join(root, file), "utf8")));

const excused = (where: string, keys: string) => `${where.slice(0, where.lastIndexOf(":"))} ${keys}` in NOT_TWINS;

/** Written-out shapes outside the contract that repeat a shape it exports. */
async function twinsOfContract(root: string, files: string[]): Promise<string[]> {
  const shapes = await contractShapes(root, files);
  return written(root, files)
    .filter((w) => !isContract(fileOf(w)) && !excused(w.where, w.keys))
    .flatMap((w) =>
      [...shapes]
        .filter(([contract]) => sameShape(w.keys, contract))
        .map(([contract, name]) => `${w.where} repeats ${name} ({ ${contract} }): import its type from the contract`),
    );
}

/** Written-out shapes outside the contract that are most of a contract shape's members and nothing else. */
async function nearTwinsOfContract(root: string, files: string[]): Promise<string[]> {
  const shapes = await contractShapes(root, files);
  return written(root, files)
    .filter((w) => !isContract(fileOf(w)) && !excused(w.where, w.keys))
    .flatMap((w) =>
      [...shapes]
        .filter(([contract]) => nearTwin(w.keys, contract))
        .map(
          ([contract, name]) =>
            `${w.where} is ${w.keys.split(",").length} of the ${contract.split(",").length} members of ${name} ` +
            `({ ${contract} }): import its type from the contract (Pick or Omit)`,
        ),
    );
}

/** Shapes written out twice where either is the contract's own text. */
function writtenTwice(root: string, files: string[]): string[] {
  return repeatedShapes(written(root, files))
    .filter(
      ([first, second]) =>
        (isContract(fileOf(first)) || isContract(fileOf(second))) &&
        !excused(first.where, first.keys) &&
        !excused(second.where, second.keys),
    )
    .map(
      ([first, second]) =>
        `${second.where} writes out again ${first.where} ({ ${first.keys} }): give it ` +
        `one home in the contract and import its type`,
    );
}

/** The fixture's TypeScript files, relative to it. */
const FIXTURE_FILES = [
  "src/schemas/pools.ts",
  "src/schemas/leases.ts",
  "src/schemas/certificates.ts",
  "simulator/pools.ts",
  "simulator/clean.ts",
  "simulator/certificates.ts",
];

describe("wire shapes", () => {
  it("are read from interfaces, object types and z.object literals, by their members' names and kinds", () => {
    const text = [
      "interface Pool { name: string; family: 4 | 6; size: number; used: number }",
      'type Refused = { ok: false; reason: "gone"; detail: string };',
      "const Row = z.object({ name: z.string(), size: z.int().min(0), tags: z.array(z.string()).optional() });",
      "interface Short { name: string }",
    ].join("\n");
    expect(writtenShapes("x.ts", text)).toEqual([
      { where: "x.ts:1", keys: "family:?,name:string,size:number,used:number" },
      { where: "x.ts:2", keys: 'detail:string,ok:false,reason:"gone"' },
      { where: "x.ts:3", keys: "name:string,size:number,tags:array" },
    ]);
    expect(sameShape("a:string,b:?,c:array", "a:string,b:object,c:array")).toBe(true);
    expect(sameShape("a:string,b:string,c:number", "a:string,b:string,c:array")).toBe(false);
    // Two variants of one tagged union are not one shape.
    expect(sameShape('detail:string,ok:false,reason:"gone"', 'detail:string,ok:false,reason:"stale"')).toBe(false);
    // Four of five members, each of its kind, is a near twin; three of five, a member of another kind, or a member
    // the contract's shape lacks is not; nor is a shape of four, whose subsets are a few common names.
    expect(nearTwin("a:string,b:?,c:array,d:number", "a:string,b:object,c:array,d:number,e:boolean")).toBe(true);
    expect(nearTwin("a:string,b:?,c:array", "a:string,b:object,c:array,d:number,e:boolean")).toBe(false);
    expect(nearTwin("a:string,b:?,c:array,d:string", "a:string,b:object,c:array,d:number,e:boolean")).toBe(false);
    expect(nearTwin("a:string,b:?,c:array,f:number", "a:string,b:object,c:array,d:number,e:boolean")).toBe(false);
    expect(nearTwin("a:string,b:?,c:array", "a:string,b:object,c:array,d:number")).toBe(false);
  });

  it(
    "are found written twice, or most of one written out, in a tree made to hold twins " +
      "(test/architecture/fixtures/written-twice)",
    async () => {
      expect(await twinsOfContract(FIXTURE, FIXTURE_FILES)).toEqual([
        "simulator/pools.ts:3 repeats src/schemas/pools.ts:AddressPool ({ " +
          "family:?,name:string,size:number,used:number }): import its type from the contract",
      ]);
      expect(await nearTwinsOfContract(FIXTURE, FIXTURE_FILES)).toEqual([
        "simulator/certificates.ts:3 is 5 of the 6 members of src/schemas/certificates.ts:CertificateInfo ({ " +
          "issuer:string,notAfter:string,notBefore:string,selfSigned:boolean,source:?,subject:string }): import its " +
          "type from the contract (Pick or Omit)",
      ]);
      expect(writtenTwice(FIXTURE, FIXTURE_FILES)).toEqual([
        "src/schemas/leases.ts:4 writes out again src/schemas/pools.ts:4 ({ " +
          "detail:string,in:?,pointer:string }): give it one home in the contract and " +
          "import its type",
        "simulator/pools.ts:3 writes out again src/schemas/pools.ts:6 ({ " +
          "family:?,name:string,size:number,used:number }): give it one home in the " +
          "contract and import its type",
      ]);
    },
  );

  it("have one home: nothing outside the contract writes a contract shape out again", async () => {
    expect(await twinsOfContract(ROOT, sourceFiles())).toEqual([]);
  }, 60_000);

  it("have one home: nothing outside the contract writes most of a contract shape out again", async () => {
    expect(await nearTwinsOfContract(ROOT, sourceFiles())).toEqual([]);
  }, 60_000);

  it("have one home: no shape is written out twice where one of the two is the contract's", () => {
    expect(writtenTwice(ROOT, sourceFiles())).toEqual([]);
  }, 60_000);
});
