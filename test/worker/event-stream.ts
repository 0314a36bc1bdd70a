/** Reading the log stream (`text/event-stream`) in tests: up to a condition, or to its end. */

/** Reads on until `done` holds for the text so far (continuing from `soFar`); a stream that ends first is an error. */
export async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
  soFar = "",
): Promise<string> {
  const decoder = new TextDecoder();
  let text = soFar;
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) throw new Error(`stream ended early after ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** Everything the stream sends until it ends. */
export async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}
