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

/**
 * How much of a refused body is still read, and for how long, before its
 * answer (a 413, or a refusal on the headers alone) goes out. workerd cannot
 * read a body once the answer is out, and resets a connection whose body it
 * left unread, so a client still sending (curl) or one that sends its whole
 * body before reading (Node's fetch, many scripts) would get a reset instead
 * of the answer; as nginx's lingering close, the appliance reads on (dropping
 * what it reads) within these bounds, and a larger body's client may see
 * the reset.
 */
const LINGER_BYTES = 8 * 1024 * 1024;
const LINGER_MS = 10_000;

/** Reads and drops what follows of a refused body, within LINGER_BYTES and LINGER_MS. */
async function linger(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0;
  const deadline = Date.now() + LINGER_MS;
  while (dropped <= LINGER_BYTES && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) return;
    dropped += value.byteLength;
  }
  // Stop pulling: workerd drops the rest with the connection.
  reader.releaseLock();
}

/**
 * Before any answer goes out: a body the answer came before (a refusal on the
 * headers alone, such as the 401 of an upload without a credential, or the 413
 * of one declared past its cap) is read and dropped within the linger's
 * bounds. One declared past them is left to the reset at once, and one a
 * client holds back until told to continue is never asked for.
 */
export async function lingerOnUnread(request: Request): Promise<void> {
  const body = request.body;
  if (body === null || request.bodyUsed) return;
  const headers = request.headers;
  if (Number(headers.get("content-length") ?? "0") > LINGER_BYTES) return;
  // A client that asked to be told first (`Expect: 100-continue`) sends nothing once answered: no reset, no upload.
  if (headers.get("expect")?.toLowerCase() === "100-continue") return;
  await linger(body.getReader());
}

/**
 * Reads a body of at most `maxBytes`, counting while it arrives: a body with
 * no Content-Length (chunked) is refused once past the cap, so a client
 * streaming megabytes gets its 413 soon after the cap and the appliance never
 * holds more than the cap.
 */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = new StatusError(413, `request body exceeds ${maxBytes} bytes`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  // Left unread: the Worker lingers on it before the 413 goes (`lingerOnUnread`).
  if (declared > maxBytes) throw tooLarge;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await linger(reader);
      throw tooLarge;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a JSON body; `undefined` when the request carries none. `alsoAccepted` names another media type the route
 * takes, for the 415.
 */
export async function readJsonBody(request: Request, alsoAccepted?: string): Promise<unknown> {
  const text = new TextDecoder().decode(await readCapped(request, MAX_BODY_BYTES));
  if (text.trim() === "") return undefined;
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw new StatusError(
      415,
      `request bodies must be application/json, text/json or ` +
        `application/*+json${alsoAccepted ? ` (or ${alsoAccepted} here)` : ""}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StatusError(400, `malformed JSON body: ${(error as Error).message}`);
  }
}

/**
 * Reads a binary body of at most `maxBytes` (413 above, judged by Content-Length first when it is sent, then counted as
 * it arrives).
 */
export async function readBytesBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  return readCapped(request, maxBytes);
}
