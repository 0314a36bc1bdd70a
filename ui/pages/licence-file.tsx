/** Loading an offline lease file (the JSON the licence issuer writes) into this appliance. */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, type Input } from "../api.ts";
import { can } from "../session.ts";
import { ProblemNote } from "../components/problem.tsx";
import { JsonView } from "../components/json-view.tsx";

export function LicenceFile() {
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<unknown>(undefined);
  if (!can(contract.licensing.loadOffline)) return null;
  async function load(file: File) {
    setError(null);
    setResult(undefined);
    let lease: unknown;
    try {
      lease = JSON.parse(await file.text());
    } catch {
      setError(new ApiError(0, { detail: `${file.name} is not a JSON lease file` }, null));
      return;
    }
    try {
      // The file as read: the appliance checks it is a lease (a 400 names what is wrong).
      setResult(
        await call(contract.licensing.loadOffline, {
          body: lease as Input<typeof contract.licensing.loadOffline>["body"],
        }),
      );
    } catch (failure) {
      setError(failure as ApiError);
    }
  }
  return (
    <form class="action" onSubmit={(e) => e.preventDefault()}>
      <h3>Load an offline lease</h3>
      <label for="lease-file">Lease file (JSON)</label>
      <input
        id="lease-file"
        type="file"
        accept=".json,application/json"
        onChange={(e) => e.currentTarget.files?.[0] && void load(e.currentTarget.files[0])}
      />
      <ProblemNote error={error} />
      {result !== undefined && (
        <div role="status">
          <JsonView value={result} compact />
        </div>
      )}
    </form>
  );
}
