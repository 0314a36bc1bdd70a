/**
 * Configuration: the active document, change sets through the commit
 * pipeline, validation without commit, history and rollback, the schema of
 * every key, and the web UI certificate.
 */
import { z } from "zod";
import { encode } from "../config/document.ts";
import { CONFIG_KEYS, REDACTED, type FieldSpec } from "../config/registry.ts";
import { StatusError } from "../http/problem.ts";
import { inWorker } from "../http/route.ts";
import { configCommitResult } from "../schemas/commit.ts";
import { config, type ConfigSchemaDocument } from "../schemas/config.ts";
import { committed, readAt } from "../http/config-version.ts";
import { checkCertificatePair } from "../trust/x509.ts";
import { ROLES } from "../auth/roles.ts";

/**
 * A value's enumeration and integer range, read from the registry's zod
 * schema as JSON Schema states them (the one definition stays the
 * registry's). A role's `admin` is an accepted synonym, not a choice.
 */
function boundsOf(spec: FieldSpec): { choices: string[] | null; minimum: number | null; maximum: number | null } {
  if (spec.type === "role") return { choices: [...ROLES], minimum: null, maximum: null };
  const json = z.toJSONSchema(spec.schema, { io: "input", unrepresentable: "any" }) as {
    enum?: unknown[];
    minimum?: number;
    maximum?: number;
  };
  return {
    choices: json.enum ? json.enum.map(String) : null,
    minimum: json.minimum ?? null,
    maximum: json.maximum ?? null,
  };
}

const describeChild = (name: string, spec: FieldSpec) => ({
  name,
  type: spec.type,
  default: encode(spec, spec.default, true),
  required: spec.required ?? false,
  secret: spec.secret ?? false,
  listMode: spec.listMode ?? false,
  references: spec.ref?.list ?? null,
  ...boundsOf(spec),
  description: spec.description,
});

let described: z.infer<typeof ConfigSchemaDocument> | undefined;

/** GET /config/schema, straight from the registry (which does not change while the Worker runs: made once). */
function schemaDocument(): z.infer<typeof ConfigSchemaDocument> {
  return (described ??= {
    redactionPlaceholder: REDACTED,
    keys: CONFIG_KEYS.map((key) =>
      key.kind === "field"
        ? {
            path: key.path,
            type: key.type,
            default: encode(key, key.default, true),
            secret: key.secret ?? false,
            listMode: key.listMode ?? false,
            keyedList: false,
            apply: key.apply,
            managedBy: key.managedBy ?? null,
            key: null,
            unique: [],
            children: [],
            ...boundsOf(key),
            description: key.description,
          }
        : {
            path: key.path,
            type: "keyedList",
            default: null,
            secret: false,
            listMode: false,
            keyedList: true,
            apply: key.apply,
            managedBy: null,
            key: { name: key.key.name, type: key.key.type, description: key.key.description },
            unique: [...(key.unique ?? [])],
            children: Object.entries(key.children).map(([name, spec]) => describeChild(name, spec)),
            choices: null,
            minimum: null,
            maximum: null,
            description: key.description,
          },
    ),
  });
}

/** PEM text as stored: trimmed, LF line ends, one final newline. */
const tidyPem = (pem: string) => `${pem.replace(/\r\n?/g, "\n").trim()}\n`;

/** A DNS name matches a SAN, wildcards covering one left-most label (RFC 6125 §6.4.3). */
const namesHost = (sans: string[], host: string) =>
  sans.some((san) => {
    if (!san.startsWith("DNS:")) return false;
    const name = san.slice(4).toLowerCase();
    if (name === host) return true;
    const suffix = name.startsWith("*.") ? name.slice(1) : null;
    const label = suffix && host.endsWith(suffix) ? host.slice(0, host.length - suffix.length) : "";
    return label !== "" && !label.includes(".");
  });

export const configRoutes = [
  inWorker(config.values, async (ctx) => readAt(ctx, await ctx.port.config.values()).document),
  inWorker(config.apply, async (ctx) => configCommitResult(committed(ctx, await ctx.port.config.apply(ctx.body)))),
  inWorker(config.rollback, async (ctx) =>
    configCommitResult(committed(ctx, await ctx.port.config.rollback(ctx.body.version, ctx.body.comment))),
  ),
  // Straight from the registry: the one call the pipeline makes is the caller's authorization.
  inWorker(config.schema, () => schemaDocument()),
  inWorker(config.installCertificate, async (ctx) => {
    const checked = await checkCertificatePair(ctx.body.certificatePem, ctx.body.privateKeyPem, Date.now());
    if (!checked.ok) {
      const summary = checked.errors.map((e) => `${e.pointer.slice(2)}: ${e.detail}`).join("; ");
      throw new StatusError(422, `the certificate was rejected: ${summary}`, {
        errors: checked.errors.map((e) => ({ in: "body", ...e })),
      });
    }
    const pair = {
      certificatePem: tidyPem(ctx.body.certificatePem),
      privateKeyPem: tidyPem(ctx.body.privateKeyPem),
      sha256Fingerprint: checked.details.sha256Fingerprint,
    };
    const installed = committed(ctx, await ctx.port.config.installCertificate(pair, ctx.body.comment));
    const { hostname, acme } = installed;
    const warnings = [...checked.warnings];
    if (hostname && !namesHost(checked.details.subjectAltNames, hostname.toLowerCase()))
      warnings.push(
        `the certificate does not name webUi.hostname '${hostname}' among its DNS subject alternative names`,
      );
    if (acme.enabled)
      warnings.push("acme.enabled is true: the ACME client will replace this certificate with one from the CA");
    return {
      status: "committed" as const,
      committedUtc: installed.committedUtc,
      version: installed.version,
      restartRequired: false as const,
      ...checked.details,
      source: "uploaded" as const,
      acme,
      warnings,
    };
  }),
  inWorker(config.certificate, async (ctx) => {
    const { details, acme } = await ctx.port.config.certificate();
    if (!details) {
      const progress = acme.enabled
        ? `; ACME is ${acme.state}${acme.lastError ? ` (last error: ${acme.lastError})` : ""}`
        : "";
      throw new StatusError(
        404,
        `no certificate is installed: the listener presents the factory self-signed certificate${progress}`,
      );
    }
    return { ...details, source: acme.issuedUtc !== null ? ("acme" as const) : ("uploaded" as const), acme };
  }),
];
