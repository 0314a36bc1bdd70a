/**
 * An MQTT 3.1.1 publisher for the bus sink: CONNECT (clean session, a client
 * identifier per appliance and sink), one PUBLISH at QoS 1 awaited until its
 * PUBACK, DISCONNECT. A connection per notification rather than a kept one:
 * alarms are rare, and nothing is left open in a Durable Object that may be
 * evicted (docs/decisions.md, Alarm sinks).
 */
import type { MqttSink } from "../../src/config/sink-urls.ts";
import type { Attempt } from "./attempt.ts";
import { CONNACK_REFUSALS, DISCONNECT, connectPacket, publishPacket, readPacket } from "./mqtt-packets.ts";
import { Wire } from "./wire.ts";

const CONNACK = 2;
const PUBACK = 4;
const PACKET_ID = 1;

export interface Publication {
  clientId: string;
  topic: string;
  payload: string;
}

/** Publishes once to the sink's broker; the outcome says whether another attempt could succeed. */
export async function publish(
  url: string,
  sink: MqttSink,
  password: string | null,
  allowlist: readonly string[],
  p: Publication,
  timeoutMs: number,
): Promise<Attempt> {
  const wire = await Wire.open(url, "mqtt", allowlist, sink.defaultPort, sink.tls ? "on" : "off", timeoutMs);
  const read = (n: number) => wire.read(n);
  try {
    await wire.write(
      connectPacket({
        clientId: p.clientId,
        username: sink.username,
        password,
        keepAliveSeconds: Math.ceil(timeoutMs / 1000),
      }),
    );
    const connack = await readPacket(read);
    if (connack.type !== CONNACK || connack.body.length !== 2)
      return { ok: false, permanent: false, cause: `expected CONNACK, got packet type ${connack.type}` };
    const code = connack.body[1]!;
    // 3 (server unavailable) may pass; the others will not until the configuration changes.
    if (code !== 0)
      return {
        ok: false,
        permanent: code !== 3,
        cause: `connection refused: ${CONNACK_REFUSALS[code] ?? `return code ${code}`}`,
      };
    await wire.write(publishPacket(p.topic, PACKET_ID, new TextEncoder().encode(p.payload)));
    for (;;) {
      const answer = await readPacket(read);
      if (
        answer.type === PUBACK &&
        answer.body.length === 2 &&
        ((answer.body[0]! << 8) | answer.body[1]!) === PACKET_ID
      )
        break;
    }
    await wire.write(DISCONNECT).catch(() => undefined);
    return { ok: true };
  } catch (error) {
    return {
      ok: false,
      permanent: false,
      cause: wire.timedOut ? "no answer in time" : error instanceof Error ? error.message : String(error),
    };
  } finally {
    await wire.close();
  }
}
