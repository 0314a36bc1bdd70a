/**
 * A small RFC 5424 parser, written from the RFC's ABNF (§6) and not from the
 * appliance's formatter, so a test compares what the receiver got with what
 * the API shows on the RFC's terms:
 *
 *   SYSLOG-MSG      = HEADER SP STRUCTURED-DATA [SP MSG]
 *   HEADER          = PRI VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID
 *   PRI             = "<" PRIVAL ">"            ; PRIVAL 1*3DIGIT, 0-191
 *   VERSION         = NONZERO-DIGIT 0*2DIGIT
 *   STRUCTURED-DATA = NILVALUE / 1*SD-ELEMENT
 *   SD-ELEMENT      = "[" SD-ID *(SP SD-PARAM) "]"
 *   SD-PARAM        = PARAM-NAME "=" %d34 PARAM-VALUE %d34
 *   SD-NAME         = 1*32PRINTUSASCII except '=', SP, ']', %d34
 *   PARAM-VALUE     = UTF-8-STRING ; '"', '\' and ']' MUST be escaped with '\'
 */
export interface Syslog5424 {
  facility: number;
  severity: number;
  version: number;
  timestamp: string | null;
  hostname: string | null;
  appName: string | null;
  procId: string | null;
  msgId: string | null;
  structuredData: Record<string, Record<string, string>>;
  msg: string | null;
}

/** Parses one message; throws naming what does not follow the ABNF. */
export function parse5424(text: string): Syslog5424 {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`not RFC 5424 at ${at} (${what}): ${text}`);
  };
  const expect = (char: string) => (text[at] === char ? at++ : fail(`expected '${char}'`));
  const header = (max: number): string | null => {
    const start = at;
    while (at < text.length && text[at] !== " ") {
      const code = text.charCodeAt(at);
      if (code < 33 || code > 126) fail("not PRINTUSASCII");
      at++;
    }
    const value = text.slice(start, at);
    if (value.length === 0 || value.length > max) fail(`a header field of 1-${max} characters`);
    return value === "-" ? null : value;
  };
  const sdName = (): string => {
    const start = at;
    while (at < text.length && !' =]"'.includes(text[at]!) && text.charCodeAt(at) >= 33 && text.charCodeAt(at) <= 126)
      at++;
    const name = text.slice(start, at);
    if (name.length === 0 || name.length > 32) fail("an SD-NAME of 1-32 characters");
    return name;
  };

  expect("<");
  const pri = /^\d{1,3}/.exec(text.slice(at))?.[0] ?? fail("PRIVAL");
  at += pri.length;
  if (Number(pri) > 191) fail("PRIVAL above 191");
  expect(">");
  const version = /^[1-9]\d{0,2}/.exec(text.slice(at))?.[0] ?? fail("VERSION");
  at += version.length;
  expect(" ");
  const timestamp = header(32);
  expect(" ");
  const hostname = header(255);
  expect(" ");
  const appName = header(48);
  expect(" ");
  const procId = header(128);
  expect(" ");
  const msgId = header(32);
  expect(" ");

  const structuredData: Record<string, Record<string, string>> = {};
  if (text[at] === "-") at++;
  else {
    if (text[at] !== "[") fail("STRUCTURED-DATA");
    while (text[at] === "[") {
      at++;
      const id = sdName();
      if (id in structuredData) fail(`SD-ID ${id} twice`);
      const params: Record<string, string> = {};
      while (text[at] === " ") {
        at++;
        const name = sdName();
        expect("=");
        expect('"');
        let value = "";
        while (text[at] !== '"') {
          if (at >= text.length) fail("an unterminated PARAM-VALUE");
          if (text[at] === "\\" && '"\\]'.includes(text[at + 1] ?? "")) at++;
          else if (text[at] === "]") fail("an unescaped ']' in a PARAM-VALUE");
          value += text[at++];
        }
        at++;
        params[name] = value;
      }
      expect("]");
      structuredData[id] = params;
    }
  }
  let msg: string | null = null;
  if (at < text.length) {
    expect(" ");
    msg = text.slice(at).replace(/^\uFEFF/, "");
  }
  if (timestamp !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/.test(timestamp))
    throw new Error(`TIMESTAMP is no RFC 3339 time: ${timestamp}`);
  const prival = Number(pri);
  return {
    facility: prival >> 3,
    severity: prival & 7,
    version: Number(version),
    timestamp,
    hostname,
    appName,
    procId,
    msgId,
    structuredData,
    msg,
  };
}
