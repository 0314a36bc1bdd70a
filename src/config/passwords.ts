/**
 * Clear passwords never reach a configuration document. A change may write a
 * `password`-typed child in clear (the CLI's and Ansible's habit); before the
 * candidate is built, each one the policy accepts is replaced by its hash. The
 * pipeline itself is synchronous, so the slow KDF and the common-password
 * list (loaded at its first use) run here, ahead of it; a refused one stays
 * clear, and the validation refuses it saying why.
 */
import { isNewPassword } from "../auth/accounts.ts";
import type { Edit } from "./edit.ts";
import { REDACTED, configKey } from "./registry.ts";

/** The edits with every acceptable clear password replaced by `hash(password)`. */
export async function hashNewPasswords(edits: Edit[], hash: (password: string) => Promise<string>): Promise<Edit[]> {
  return Promise.all(
    edits.map(async (edit) => {
      if (edit.op !== "item" || !edit.fields) return edit;
      const list = configKey(edit.listPath);
      if (list?.kind !== "list") return edit;
      const fields = { ...edit.fields };
      for (const [child, value] of Object.entries(fields)) {
        if (
          list.children[child]?.type === "password" &&
          typeof value === "string" &&
          value !== REDACTED &&
          (await isNewPassword(value))
        )
          fields[child] = await hash(value);
      }
      return { ...edit, fields };
    }),
  );
}
