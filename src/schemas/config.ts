/**
 * Configuration, the wire contract: the active values, change sets and their
 * validation, the history (one entry per committed version, and what started
 * it), the schema of every key, the web UI certificate, and the section's
 * operations.
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { REDACTED } from "../config/registry.ts";
import { AcmeStatus } from "./acme.ts";
import { ConfigCommitResult, ConfigOperation } from "./commit.ts";
import { DateTime, page, pageQuery } from "./common.ts";
import { FieldError } from "./common.ts";

const TextValue = z.string().nullable();

const ConfigListItem = z
  .object({
    key: z.string(),
    values: z.record(z.string(), TextValue).meta({ description: "child path to text; null = unset" }),
  })
  .meta({ id: "ConfigListItem" });

export const ConfigValues = z
  .object({
    fields: z.record(z.string(), TextValue).meta({
      description: `schema path to text; secrets read \`${REDACTED}\`; list-mode fields newline-joined; null = unset`,
    }),
    lists: z
      .record(z.string(), z.array(ConfigListItem))
      .meta({ description: "list path to its items, in configuration order" }),
  })
  .meta({ id: "ConfigValues", description: "every active field, secrets redacted" });
export type ConfigValues = z.output<typeof ConfigValues>;

export const ConfigChange = z.object({ pointer: z.string(), before: TextValue, after: TextValue });
export type ConfigChange = z.output<typeof ConfigChange>;

export const ConfigHistoryEntry = z
  .object({
    version: z.int(),
    committedUtc: DateTime,
    actor: z.string().meta({ description: "`token:<name>`, `user:<name>`, or `system` for the seeded version 1" }),
    comment: z.string().nullable(),
    operation: ConfigOperation,
    rollbackTo: z.int().nullable().meta({ description: "for a rollback, the version restored" }),
    restartRequired: z.boolean(),
    changedPaths: z.array(z.string()),
    changes: z
      .array(ConfigChange)
      .meta({ description: `each changed value before and after, in text form; secrets read \`${REDACTED}\`` }),
  })
  .meta({ id: "ConfigHistoryEntry" });
export type ConfigHistoryEntry = z.output<typeof ConfigHistoryEntry>;
export const ConfigHistoryPage = page(ConfigHistoryEntry, "ConfigHistoryPage");
export type ConfigHistoryPage = z.output<typeof ConfigHistoryPage>;

const POINTERS =
  'Rejected values are listed in the problem\'s `errors` member as `{in: "config", ' +
  "pointer, detail}`; `pointer` is a JSON Pointer into the document as GET " +
  "/api/v1/config shows it, " +
  ("with keyed-list items addressed by key: `#/fields/webUi.hostname`, " +
    "`#/lists/vrfs/cust-a` (an item), `#/lists/vrfs/cust-a/tableId` (a child).");

/** Optimistic concurrency, said where a client reads or writes the document (src/http/config-version.ts). */
const CONCURRENCY =
  "Optimistic concurrency (RFC 9110): every read of configuration-backed state " +
  'answers `ETag: "v<version>"` (the active version of GET /api/v1/config/history, ' +
  "one for the whole document, so an edit of another list moves it too), and every " +
  "configuration write answers the new one; " +
  ("a write sent with `If-Match` is committed only if it names the active version " +
    "(`*` matches any; weak tags never match), else 412 naming the current version, " +
    "with its `ETag`, and nothing changed. Without `If-Match` the last writer wins.");

const Comment = z
  .string()
  .max(1024)
  .nullable()
  .optional()
  .meta({ description: "recorded in the configuration history" });

const KeyedListOp = z
  .object({
    listPath: z.string().meta({ description: "e.g. `vrfs`, `radius.servers`" }),
    key: z.string(),
    delete: z.boolean().default(false),
    fields: z.record(z.string(), TextValue).default({}).meta({
      description:
        "child path to text; on a new item absent children take their defaults; null returns a child to its default",
    }),
  })
  .meta({
    id: "KeyedListOp",
    description:
      "adds the item when the key is new, updates the given children when it exists, or deletes it (`delete: true`)",
  });

export const ConfigChangeSet = z
  .object({
    fields: z
      .record(z.string(), TextValue)
      .nullable()
      .optional()
      .meta({
        description:
          `path to text; null clears to the default; list-mode fields take newline- or ` +
          `comma-separated elements and replace the list; \`${REDACTED}\` leaves a secret unchanged`,
      }),
    listOps: z.array(KeyedListOp).nullable().optional(),
    comment: Comment,
  })
  .meta({ id: "ConfigChangeSet" });

export const ConfigValidationResult = z
  .object({
    valid: z.boolean(),
    errors: z
      .array(FieldError)
      .meta({ description: "every rejected value, as a 422 would list them; empty when valid" }),
    restartRequired: z.boolean().meta({ description: "whether committing it would need a restart" }),
    changedPaths: z.array(z.string()).meta({ description: "what committing it would change" }),
  })
  .meta({ id: "ConfigValidationResult" });
export type ConfigValidationResult = z.output<typeof ConfigValidationResult>;

const RollbackRequest = z
  .object({
    version: z
      .int()
      .min(1)
      .max(2 ** 31 - 1)
      .meta({ description: "int32; restore the document as it was right after this version" }),
    comment: Comment,
  })
  .meta({ id: "ConfigRollbackRequest" });

const CertificateUpload = z
  .object({
    certificatePem: z
      .string()
      .min(1)
      .max(65_536)
      .meta({ description: "PEM certificate, optionally followed by its intermediates" }),
    privateKeyPem: z.string().min(1).max(16_384).meta({
      description: "PEM private key (PKCS#8, PKCS#1 or SEC1), unencrypted; stored as a secret, never returned",
    }),
    comment: Comment,
  })
  .meta({ id: "CertificateUpload" });

export const CertificateDetails = z
  .object({
    subject: z.string().meta({ description: "RFC 4514 distinguished name" }),
    issuer: z.string(),
    serialNumber: z.string().meta({ description: "hex" }),
    subjectAltNames: z.array(z.string()).meta({ description: "`DNS:…`, `IP:…`, `email:…`, `URI:…`" }),
    notBefore: DateTime,
    notAfter: DateTime,
    sha256Fingerprint: z.string().meta({ description: "SHA-256 of the DER certificate, colon-separated hex" }),
    publicKey: z.string().meta({ description: "e.g. `RSA 2048`, `ECDSA P-256`, `Ed25519`" }),
    selfSigned: z.boolean(),
    chainLength: z.int().meta({ description: "certificates in the chain, the leaf included" }),
    source: z.enum(["uploaded", "acme"]).meta({
      description:
        "`acme`: issued to this appliance by the ACME CA (and renewed by it); " +
        "`uploaded`: installed with POST /api/v1/config/webui/certificate",
    }),
    acme: AcmeStatus,
  })
  .meta({ id: "CertificateDetails" });
export type CertificateDetails = z.output<typeof CertificateDetails>;

export const CertificateCommitResult = CertificateDetails.extend({
  status: z.literal("committed"),
  committedUtc: DateTime.nullable(),
  version: z.int(),
  restartRequired: z
    .literal(false)
    .meta({ description: "always false: the listener serves the certificate from the commit on" }),
  warnings: z
    .array(z.string())
    .meta({ description: "accepted but worth a look: not yet valid, webUi.hostname not among the names" }),
}).meta({ id: "CertificateCommitResult" });

/** What a value (each element of a list-mode value) may be, beyond its type: read from the registry's own schema. */
const VALUE_BOUNDS = {
  choices: z
    .array(z.string())
    .nullable()
    .meta({
      description:
        "an enumeration's values (for a list-mode field, each element's), canonical " +
        "spellings only; null for other types",
    }),
  minimum: z.number().nullable().meta({ description: "an integer's least value; null for other types" }),
  maximum: z.number().nullable().meta({ description: "an integer's greatest value; null for other types" }),
};

const ConfigChildDescription = z
  .object({
    name: z.string(),
    type: z.string(),
    default: TextValue,
    required: z.boolean(),
    secret: z.boolean(),
    listMode: z.boolean(),
    references: z
      .string()
      .nullable()
      .meta({ description: "the list whose keys the value must name (plus built-ins such as `default`)" }),
    ...VALUE_BOUNDS,
    description: z.string(),
  })
  .meta({ id: "ConfigChildDescription" });

const ConfigKeyDescription = z
  .object({
    path: z.string(),
    type: z.string().meta({ description: "value type; `keyedList` for lists" }),
    default: TextValue.meta({ description: "text form; null = no default" }),
    secret: z.boolean(),
    listMode: z.boolean(),
    keyedList: z.boolean(),
    apply: z.enum(["hot", "restart"]).meta({
      description:
        "`hot`: takes effect at commit; `restart`: after the next restart (commits " +
        "touching it answer restartRequired)",
    }),
    managedBy: z
      .string()
      .nullable()
      .meta({ description: "the operation that writes it; change sets may only clear it" }),
    key: z
      .object({ name: z.string(), type: z.string(), description: z.string() })
      .nullable()
      .meta({ description: "keyed lists: what the item key is" }),
    unique: z.array(z.string()).meta({ description: "keyed lists: children whose values must differ between items" }),
    children: z.array(ConfigChildDescription).meta({ description: "keyed lists: the item's fields" }),
    ...VALUE_BOUNDS,
    description: z.string(),
  })
  .meta({ id: "ConfigKeyDescription" });

export const ConfigSchemaDocument = z
  .object({
    redactionPlaceholder: z.literal(REDACTED),
    keys: z.array(ConfigKeyDescription),
  })
  .meta({ id: "ConfigSchema" });

/** The section's operations. */
export const config = {
  values: operation({
    method: "GET",
    path: "/api/v1/config",
    section: "Configuration",
    summary: "The active configuration, secrets redacted",
    description:
      `Every key of GET /api/v1/config/schema: fields as text (list-mode fields ` +
      `newline-joined, booleans \`true\`/\`false\`, null = unset), keyed lists as ` +
      `items \`{key, values}\`. Secrets read \`${REDACTED}\`; a secret that is not set ` +
      `reads null. ${CONCURRENCY}`,
    fp: true,
    response: { description: "ConfigValues", schema: ConfigValues },
    examples: {
      response: {
        fields: {
          "webUi.listeners": "https://127.0.0.1:8443",
          "webUi.hostname": "edge-1.bng.localhost",
          "webUi.certificate": null,
          "webUi.privateKey": null,
          "acme.enabled": "false",
          "acme.directoryUrl": null,
          "acme.contact": "",
          "acme.names": "",
          "acme.renewBeforeDays": "30",
          "ipsec.enabled": "true",
          "ipsec.localAddress": null,
          "bgp.localAs": "64500",
          "routing.routerId": "10.0.0.2",
          "igp.protocol": "ospf",
          "captures.mirrorAllowlist": "",
          "alarms.webhookAllowlist": "127.0.0.0/8\n::1",
          "cgn.maxBindings": "3000",
          "cgn.maxFlows": "400000",
        },
        lists: {
          "webUi.peers": [
            { key: "edge-2", values: { url: "https://127.0.0.1:8444", credential: "********", timeoutMs: "10000" } },
            { key: "edge-3", values: { url: "https://127.0.0.1:8445", credential: "********", timeoutMs: "10000" } },
          ],
          "login.users": [
            { key: "admin", values: { role: "super-user", password: "********" } },
            { key: "noc-alice", values: { role: "operator", password: "********" } },
          ],
          vrfs: [
            {
              key: "cgn-inside",
              values: {
                tableId: "100",
                rd: "64500:100",
                importRt: "64500:100",
                exportRt: "64500:100",
                gatewayIp: null,
                gatewayIpv6: null,
                l2tpEndpointIp: null,
                originateDefaultRoute: "false",
              },
            },
            {
              key: "wholesale",
              values: {
                tableId: "101",
                rd: "64500:101",
                importRt: "64500:101",
                exportRt: "64500:101",
                gatewayIp: null,
                gatewayIpv6: null,
                l2tpEndpointIp: null,
                originateDefaultRoute: "false",
              },
            },
          ],
        },
      },
    },
  }),
  apply: operation({
    method: "PUT",
    path: "/api/v1/config",
    section: "Configuration",
    summary: "Apply a change set: candidate, validate, commit, hot-apply",
    description:
      "One pipeline for every configuration change: exclusive candidate edit, semantic " +
      "validation, atomic persist, a history entry holding the previous document, then " +
      "the hot-apply event (hot keys take effect at once; `restartRequired` is true " +
      "when a touched key applies on restart). " +
      (`\`fields\`: null clears a field back to its default (an empty string clears one ` +
        `without a default); list-mode fields take newline- or comma-separated elements ` +
        `and replace the list; \`${REDACTED}\` leaves a secret unchanged; keys managed ` +
        `by another operation (the certificate) may only be cleared. `) +
      ("`listOps` add an item (new key: absent children take their defaults, required " +
        "ones must be given), update one (existing key: only the given children change) " +
        "or delete one (`delete: true`). Unknown paths are rejected. ") +
      `422 when validation rejects, with nothing persisted. ${POINTERS} ` +
      `A change set that changes nothing answers 200 at the active version without a history entry. ${CONCURRENCY}`,
    body: ConfigChangeSet,
    response: { description: "ConfigCommitResult", schema: ConfigCommitResult },
    errors: [412, 422],
    examples: {
      body: {
        listOps: [
          {
            listPath: "vrfs",
            key: "cust-globex",
            fields: { tableId: "201", rd: "64500:201", importRt: "64500:201", exportRt: "64500:201" },
          },
        ],
        comment: "VRF for Globex",
      },
      response: {
        status: "committed",
        committedUtc: "2026-11-26T20:35:13.323Z",
        version: 11,
        restartRequired: false,
        changedPaths: ["#/lists/vrfs/cust-globex", "#/lists/vrfs/cust-globex/tableId"],
      },
    },
  }),
  validate: operation({
    method: "POST",
    path: "/api/v1/config/validate",
    section: "Configuration",
    summary: "Validate a change set without committing it",
    description:
      `Takes the body of PUT /api/v1/config and runs the same edit and validation ` +
      `against the active configuration, without persisting. Always 200 for a ` +
      `well-formed body: \`valid\` false lists in \`errors\` what a PUT would be ` +
      `refused for (422). ${POINTERS}`,
    body: ConfigChangeSet,
    response: { description: "ConfigValidationResult", schema: ConfigValidationResult },
    examples: {
      body: { fields: { "webUi.hostname": "edge-1.bng.localhost" }, comment: "check before commit" },
      response: { valid: true, errors: [], restartRequired: false, changedPaths: [] },
    },
  }),
  history: operation({
    method: "GET",
    path: "/api/v1/config/history",
    section: "Configuration",
    summary: "The configuration history, newest first",
    description:
      `One entry per committed version: who, when, the comment, the operation and ` +
      `every changed value before and after (secrets read \`${REDACTED}\`). Version 1 ` +
      `is the seeded configuration (actor \`system\`). The last 500 versions are kept.`,
    query: pageQuery(50, 500),
    response: { description: "a page of history entries", schema: ConfigHistoryPage },
    examples: {
      query: { offset: 0, limit: 2 },
      response: {
        total: 8,
        offset: 0,
        limit: 2,
        items: [
          {
            version: 8,
            committedUtc: "2026-11-26T20:35:12.335Z",
            actor: "token:bootstrap",
            comment: "third route reflector",
            operation: "bgp-neighbor",
            rollbackTo: null,
            restartRequired: false,
            changedPaths: ["#/lists/bgp.neighbors/10.0.255.3", "#/lists/bgp.neighbors/10.0.255.3/remoteAs"],
            changes: [
              { pointer: "#/lists/bgp.neighbors/10.0.255.3/remoteAs", before: null, after: "64500" },
              { pointer: "#/lists/bgp.neighbors/10.0.255.3/description", before: null, after: "route reflector rr3" },
            ],
          },
          {
            version: 7,
            committedUtc: "2026-11-26T20:35:12.278Z",
            actor: "token:bootstrap",
            comment: "corner shop",
            operation: "local-subscriber",
            rollbackTo: null,
            restartRequired: false,
            changedPaths: [
              "#/lists/subscribers.local.pppoe/shop-42@isp.example",
              "#/lists/subscribers.local.pppoe/shop-42@isp.example/password",
            ],
            changes: [
              {
                pointer: "#/lists/subscribers.local.pppoe/shop-42@isp.example/password",
                before: null,
                after: "********",
              },
              {
                pointer: "#/lists/subscribers.local.pppoe/shop-42@isp.example/planName",
                before: null,
                after: "fibre-300",
              },
            ],
          },
        ],
      },
    },
  }),
  rollback: operation({
    method: "POST",
    path: "/api/v1/config/rollback",
    section: "Configuration",
    summary: "Restore the configuration as it was right after a version",
    description:
      "The rollback is itself a commit: it is validated, gets a new version and its " +
      "own history entry (`operation: rollback`, `rollbackTo`), and hot-applies like " +
      "any change; `restartRequired` tells whether restart-only keys changed. " +
      ("It restores the whole document, every field and list, not one change: changes " +
        "committed after that version are undone too (an item deleted since is created " +
        "again, one created since is deleted). ") +
      ("Secrets, the certificate and its key are restored too. 404 when the version is " +
        "not in the history; rolling back to the active version changes nothing and " +
        "answers 200 at that version. ") +
      ("Send the `ETag` of GET /api/v1/config as `If-Match` to roll back only from the " +
        "version you read (412 otherwise)."),
    body: RollbackRequest,
    response: { description: "ConfigCommitResult", schema: ConfigCommitResult },
    errors: [404, 412, 422],
    examples: {
      body: { version: 2, comment: "back to the version before the change" },
      response: {
        status: "committed",
        committedUtc: "2026-11-26T20:35:11.999Z",
        version: 2,
        restartRequired: false,
        changedPaths: [],
      },
      errors: { 404: "version 2 is not in the configuration history" },
    },
  }),
  schema: operation({
    method: "GET",
    path: "/api/v1/config/schema",
    section: "Configuration",
    summary: "Every configuration key: path, type, default, secrecy, list mode, keyed-list children and apply mode",
    description:
      "What GET and PUT /api/v1/config work with: for every key its path, wire type " +
      "(`uint8`/`uint16`/`uint32`, `boolean`, an address or text type, or " +
      "`keyedList`), default, whether it is secret (read as `********`), list mode, " +
      "its keyed-list children and whether a change applies at once (`hot`) or at the " +
      "next start (`restart`).",
    response: { description: "ConfigSchema", schema: ConfigSchemaDocument },
    examples: {
      response: {
        redactionPlaceholder: "********",
        keys: [
          {
            path: "webUi.listeners",
            type: "url",
            default: "https://127.0.0.1:8443",
            secret: false,
            listMode: true,
            keyedList: false,
            apply: "restart",
            managedBy: null,
            key: null,
            unique: [],
            children: [],
            choices: null,
            minimum: null,
            maximum: null,
            description: "addresses the web UI and this API listen on; at least one",
          },
          {
            path: "webUi.hostname",
            type: "hostname",
            default: null,
            secret: false,
            listMode: false,
            keyedList: false,
            apply: "restart",
            managedBy: null,
            key: null,
            unique: [],
            children: [],
            choices: null,
            minimum: null,
            maximum: null,
            description: "the name the appliance answers to (OIDC redirect URIs, certificate checks); null = none",
          },
        ],
      },
    },
  }),
  installCertificate: operation({
    method: "POST",
    path: "/api/v1/config/webui/certificate",
    section: "Configuration",
    summary: "Install the web UI certificate and private key",
    description:
      "Both PEMs must parse (the certificate may be followed by its intermediates; " +
      "keys as PKCS#8, PKCS#1 or SEC1, unencrypted), the key must be the " +
      "certificate's (RSA of at least 2048 bits, ECDSA P-256/384/521 or Ed25519), and " +
      "the certificate must not have expired; otherwise 422 naming `#/certificatePem` " +
      'or `#/privateKeyPem` (`in: "body"`). ' +
      ("The pair is committed as `webUi.certificate` and the secret `webUi.privateKey` " +
        "through the configuration pipeline (history entry with `operation: " +
        "certificate`; rollback restores the previous pair). The key is never returned. ") +
      ("The listener serves it from the commit on, without a restart. While " +
        "`acme.enabled` is true the ACME client replaces an uploaded certificate with " +
        "one from the CA."),
    body: CertificateUpload,
    response: { description: "the installed certificate's details", schema: CertificateCommitResult },
    errors: [412, 422],
    examples: {
      body: {
        certificatePem: "-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n",
        privateKeyPem: "-----BEGIN PRIVATE KEY-----\nMIG…\n-----END PRIVATE KEY-----\n",
        comment: "certificate from the corporate CA",
      },
      response: {
        subject: "CN=edge-1.bng.localhost",
        issuer: "CN=ISP Internal CA 2026",
        serialNumber: "4f1c9a7e2b3d5f60",
        subjectAltNames: ["DNS:edge-1.bng.localhost"],
        notBefore: "2026-11-01T00:00:00.000Z",
        notAfter: "2027-11-01T00:00:00.000Z",
        sha256Fingerprint:
          "3B:9E:4A:71:0C:D2:58:6F:E1:23:97:AB:40:5C:88:D6:12:7F:E9:04:3A:B5:C6:71:2D:98:E0:4F:61:A3:B7:2C",
        publicKey: "EC P-256",
        selfSigned: false,
        chainLength: 2,
        source: "uploaded",
        acme: {
          enabled: false,
          directoryUrl: null,
          state: "idle",
          names: [],
          accountUrl: null,
          lastAttemptUtc: null,
          lastError: null,
          issuedUtc: null,
          renewalUtc: null,
          nextAttemptUtc: null,
        },
        status: "committed",
        committedUtc: "2026-11-26T20:41:07.000Z",
        version: 4,
        restartRequired: false,
        warnings: [],
      },
    },
  }),
  certificate: operation({
    method: "GET",
    path: "/api/v1/config/webui/certificate",
    section: "Configuration",
    summary: "The installed web UI certificate",
    description:
      "The certificate the listeners present, where it came from (`source`) and the " +
      "ACME client's status (`acme`). 404 while the factory self-signed certificate is " +
      "in use (nothing uploaded or issued, or `webUi.certificate` cleared); with ACME " +
      "enabled its detail tells the ACME state. The private key is never shown. " +
      ("ACME (RFC 8555): set `acme.directoryUrl` (the CA's https directory; a private " +
        "CA's root is trusted through the launcher's NODE_EXTRA_CA_CERTS), optionally " +
        "`acme.contact`, `acme.names` and `acme.renewBeforeDays`, then `acme.enabled: true`. ") +
      ("The appliance registers an account (an ES256 key it generates and keeps to " +
        "itself; changing the directory drops it), orders a certificate for `names`, and " +
        "answers the CA's HTTP-01 challenge on its listener at `GET " +
        "/.well-known/acme-challenge/{token}` (anonymous, exact token, text/plain; the " +
        "local launcher's HTTPS port also takes the CA's plain-HTTP request). ") +
      ("The issued chain and a fresh ECDSA P-256 key are committed as " +
        "`webUi.certificate`/`webUi.privateKey` (history `operation: acme`, actor " +
        "`system`) and served without a restart; the certificate is renewed " +
        "`acme.renewBeforeDays` before expiry. Every step is logged (`acme.*`). ") +
      ("Deployed on Cloudflare, the edge terminates TLS with Cloudflare's certificate: " +
        "the appliance still runs ACME and shows the result here, but browsers see the " +
        "edge's certificate."),
    response: { description: "CertificateDetails", schema: CertificateDetails },
    errors: [404],
    examples: {
      response: {
        subject: "CN=edge-1.bng.localhost",
        issuer: "CN=ISP Internal CA 2026",
        serialNumber: "4f1c9a7e2b3d5f60",
        subjectAltNames: ["DNS:edge-1.bng.localhost"],
        notBefore: "2026-11-01T00:00:00.000Z",
        notAfter: "2027-11-01T00:00:00.000Z",
        sha256Fingerprint:
          "3B:9E:4A:71:0C:D2:58:6F:E1:23:97:AB:40:5C:88:D6:12:7F:E9:04:3A:B5:C6:71:2D:98:E0:4F:61:A3:B7:2C",
        publicKey: "EC P-256",
        selfSigned: false,
        chainLength: 2,
        source: "uploaded",
        acme: {
          enabled: false,
          directoryUrl: null,
          state: "idle",
          names: [],
          accountUrl: null,
          lastAttemptUtc: null,
          lastError: null,
          issuedUtc: null,
          renewalUtc: null,
          nextAttemptUtc: null,
        },
      },
      errors: { 404: "no certificate is installed: the listener presents the factory self-signed certificate" },
    },
  }),
};
