/**
 * Request body reading: the spec accepts `application/json`, `text/json` and
 * `application/*+json`; anything else on a body-carrying request is 415, and
 * JSON that does not parse is 400 before any schema runs.
 */
import { StatusError } from "./problem.ts";

/** Request bodies above this are refused with 413; no management payload comes near it. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^(application\/json|text\/json|application\/[a-z0-9.+-]+\+json)$/;

/** True for the JSON media types the appliance accepts (parameters such as charset ignored). */
export function isJsonMediaType(contentType: string | null): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return JSON_TYPE.test(type);
}

/** True for `application/octet-stream` (parameters ignored): the one binary body, a software package. */
export function isOctetStream(contentType: string | null): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/octet-stream";
}

/** Reads a JSON body; `undefined` when the request carries none. `alsoAccepted` names another media type the route takes, for the 415. */
export async function readJsonBody(request: Request, alsoAccepted?: string): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new StatusError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new StatusError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (text.trim() === "") return undefined;
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new StatusError(415, `request bodies must be application/json, text/json or application/*+json${alsoAccepted ? ` (or ${alsoAccepted} here)` : ""}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StatusError(400, `malformed JSON body: ${(error as Error).message}`);
  }
}

/** Reads a binary body of at most `maxBytes` (413 above, judged by Content-Length first when it is sent). */
export async function readBytesBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new StatusError(413, `request body exceeds ${maxBytes} bytes`);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > maxBytes) throw new StatusError(413, `request body exceeds ${maxBytes} bytes`);
  return bytes;
}
