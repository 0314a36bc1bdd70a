/**
 * The relay's reader of workerd's answers (launcher/response-reader.ts), on hand-written HTTP/1.1 answers: each
 * framing RFC 9112 §6.3 names, fed whole, split at every byte, and a byte at a time (TCP splits anywhere), and
 * answers that are not well-formed, which fail rather than pass anything on.
 */
import { describe, expect, it } from "vitest";
import { ResponseReader } from "../../launcher/response-reader.ts";

type Read = {
  status?: number;
  message?: string;
  headers?: string[];
  body: string;
  ended: boolean;
  keepAlive?: boolean;
  closedComplete?: boolean;
};

/** Feeds `pieces` in order (then a close, if asked) and records what the reader handed over. */
function read(pieces: string[], options: { isHead?: boolean; close?: boolean } = {}): Read {
  const out: Read = { body: "", ended: false };
  const reader = new ResponseReader(options.isHead ?? false, {
    head: (head) => Object.assign(out, { status: head.status, message: head.message, headers: head.rawHeaders }),
    body: (chunk) => void (out.body += chunk.toString("latin1")),
    end: (keepAlive) => Object.assign(out, { ended: true, keepAlive }),
  });
  for (const piece of pieces) reader.push(Buffer.from(piece, "latin1"));
  if (options.close) out.closedComplete = reader.close();
  return out;
}

/** The same answer fed whole, split in two at every byte, and a byte at a time: all must read alike. */
function everySplit(answer: string, options: { isHead?: boolean; close?: boolean } = {}): Read[] {
  const reads = [read([answer], options), read([...answer], options)];
  for (let at = 1; at < answer.length; at++) reads.push(read([answer.slice(0, at), answer.slice(at)], options));
  return reads;
}

const CHUNKED =
  "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: " +
  "chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\nA\r\n, 10 bytes\r\n0\r\n\r\n";

describe("an answer workerd frames", () => {
  it(
    "chunked (an event stream, a large list): the chunks' data joined, extensions " +
      "ignored, the connection reusable",
    () => {
      for (const r of everySplit(CHUNKED)) {
        expect(r).toEqual({
          status: 200,
          message: "OK",
          headers: ["content-type", "text/event-stream", "transfer-encoding", "chunked"],
          body: "hello world, 10 bytes",
          ended: true,
          keepAlive: true,
        });
      }
    },
  );

  it("chunked with trailer fields: the fields dropped, the answer ended by the empty line", () => {
    const answer =
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nx-checksum: 1\r\nx-more: 2\r\n\r\n";
    for (const r of everySplit(answer)) expect(r).toMatchObject({ body: "abc", ended: true, keepAlive: true });
  });

  it("by Content-Length: exactly that many bytes", () => {
    const body = '{"status":"ok","appliance":"edge-1"}';
    const answer = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    for (const r of everySplit(answer)) expect(r).toMatchObject({ status: 200, body, ended: true, keepAlive: true });
  });

  it("with Content-Length 0, a 204 or a 304: no body, ended at the head", () => {
    expect(read(["HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n"])).toMatchObject({
      status: 202,
      message: "Accepted",
      body: "",
      ended: true,
    });
    expect(read(["HTTP/1.1 204 No Content\r\n\r\n"])).toMatchObject({ status: 204, ended: true, keepAlive: true });
    expect(read(['HTTP/1.1 304 Not Modified\r\netag: "a"\r\n\r\n'])).toMatchObject({ status: 304, ended: true });
  });

  it("to a HEAD request: no body, whatever Content-Length says", () => {
    expect(read(["HTTP/1.1 200 OK\r\ncontent-length: 1234\r\n\r\n"], { isHead: true })).toMatchObject({
      headers: ["content-length", "1234"],
      body: "",
      ended: true,
      keepAlive: true,
    });
  });

  it("with neither length nor chunking: the body runs to the close, and the connection is not reused", () => {
    const r = read(["HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nsome", " text"], { close: true });
    expect(r).toMatchObject({ body: "some text", ended: true, keepAlive: false, closedComplete: true });
  });

  it("with Connection: close, or as HTTP/1.0: complete, and the connection not reused", () => {
    expect(read(["HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok"])).toMatchObject({
      body: "ok",
      ended: true,
      keepAlive: false,
    });
    expect(read(["HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok"])).toMatchObject({ ended: true, keepAlive: false });
  });

  it("after an interim 100 Continue: the final answer is the one read", () => {
    for (const r of everySplit("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}")) {
      expect(r).toMatchObject({ status: 201, message: "Created", body: "{}", ended: true });
    }
  });

  it("a status line without a reason phrase", () => {
    expect(read(["HTTP/1.1 200\r\ncontent-length: 0\r\n\r\n"])).toMatchObject({
      status: 200,
      message: "",
      ended: true,
    });
  });
});

describe("an answer that is not complete or not well-formed", () => {
  it("cut by the close mid-body is not complete", () => {
    expect(read(["HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc"], { close: true })).toMatchObject({
      ended: false,
      closedComplete: false,
    });
    expect(read(["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhel"], { close: true })).toMatchObject({
      body: "hel",
      ended: false,
      closedComplete: false,
    });
    const headCut = read(["HTTP/1.1 200 OK\r\ncontent-"], { close: true });
    expect(headCut.status).toBeUndefined();
    expect(headCut.closedComplete).toBe(false);
  });

  it.each([
    ["a status line that is not HTTP/1.x", "HTTP/2 200 OK\r\n\r\n"],
    ["a header line without a colon", "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"],
    ["a chunk size that is not hex", "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n"],
    ["a chunk longer than its size", "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n"],
    ["a Content-Length that is not a number", "HTTP/1.1 200 OK\r\ncontent-length: 1e3\r\n\r\n"],
    ["bytes after a complete answer", "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n"],
  ])("%s fails", (_name, answer) => {
    expect(() => read([answer])).toThrow();
  });
});
