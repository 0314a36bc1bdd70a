/**
 * Configuration: the active document, change sets through the commit pipeline, validation without commit, history,
 * rollback, and the web UI certificate (installed as a commit; read with what ACME makes of it).
 */
import { config as contract } from "../../src/schemas/config.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import { inspectCertificate } from "../../src/trust/x509.ts";
import type { RequestOf } from "./serves.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { serves } from "./serves.ts";

/** A checked certificate pair as the Worker tidied it, with the fingerprint its check read. */
interface CertificatePair {
  certificatePem: string;
  privateKeyPem: string;
  sha256Fingerprint: string;
}

export function configPorts(core: Pick<ApplianceCore, "config" | "acme">) {
  const config = () => core.config();
  const version = () => config().activeVersion().version;
  return {
    values: () => ({ document: config().values(), version: version() }),
    apply: (caller: Caller, change: RequestOf<typeof contract.apply>["body"]) =>
      config().apply(change, { actor: actor(caller), ifMatch: caller.ifMatch }),
    validate: serves(contract.validate, (_, { body }) => config().validate(body)),
    history: serves(contract.history, (_, { query }) => config().history(query.offset, query.limit)),
    rollback: (caller: Caller, to: number, comment: string | null | undefined) =>
      config().rollback(to, { actor: actor(caller), comment, ifMatch: caller.ifMatch }),
    // The commit, then what the answer reports beside it (the hostname the certificate should name, ACME's view of
    // it), in one call.
    installCertificate: (caller: Caller, pair: CertificatePair, comment: string | null | undefined) => {
      const installed = config().installCertificate(pair.certificatePem, pair.privateKeyPem, {
        actor: actor(caller),
        comment,
        ifMatch: caller.ifMatch,
      });
      if (!installed.ok) return installed;
      return {
        ...installed,
        hostname: config().values().fields["webUi.hostname"] ?? null,
        acme: core.acme().status(pair.sha256Fingerprint),
      };
    },
    certificate: async () => {
      const pem = config().certificatePem();
      const details = pem === null ? null : await inspectCertificate(pem);
      return { details, acme: core.acme().status(details?.sha256Fingerprint ?? null) };
    },
  } satisfies PortsOf<"config">;
}
