import type { Redis } from "ioredis";
import { serializeErrorFrame } from "../../../errors/error-frame.js";
import type { Logger } from "../../../log/logger.js";
import { uniqueId } from "../../../rpc/unique-id.js";
import type { RequestId } from "../../../wire/jsonrpc.js";
import { MAX_FRAME_BYTES } from "../../../wire/limits.js";
import { REQUEST_ENDED_CODE } from "../http-session.js";
import type { RelayedMessage, SessionRecord, SessionStore, StreamLog, StreamSink } from "./session-store.js";

/**
 * The module name kept out of the bundler's sight: a plugin bundle that never shares its
 * sessions must not carry `ioredis`; one that does resolves it at run time.
 */
const IOREDIS_MODULE = "ioredis";

/** Settings of {@link openRedisSessionStore}. */
export interface RedisStoreSettings {
  /** `redis://` or `rediss://` URL of the server. */
  readonly url: string;
  /** How long a session lives without requests (its record's TTL, renewed on each). */
  readonly sessionTtlMs: number;
  readonly log: Logger;
  /** Given each message another replica relayed. */
  readonly onRelayed: (message: RelayedMessage) => void;
}

/** Keys and channel, all under one prefix so one Redis can hold other data beside. */
const PREFIX = "executa:mcp:";
const RELAY_CHANNEL = `${PREFIX}relay`;
const sessionKey = (id: string) => `${PREFIX}session:${id}`;
const streamKey = (sessionId: string, streamId: string) => `${PREFIX}stream:${sessionId}:${streamId}`;
const replicaKey = (replicaId: string) => `${PREFIX}replica:${replicaId}`;

/** Events a stream keeps (older ones are dropped: a client that far behind cannot resume them). */
const STREAM_MAX_EVENTS = 1_000;
/** How long a stream's events stay after its last one: a client resumes within seconds, or not at all. */
const STREAM_TTL_MS = 5 * 60_000;
/** A replica renews its liveness this often; it counts as gone once its key outlives three renewals. */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_TTL_MS = 3 * HEARTBEAT_MS;
/** Longest wait for one Redis command: a stalled Redis fails requests, it never hangs them. */
const COMMAND_TIMEOUT_MS = 2_000;

/** A stream id names the replica that writes it (`replica.random`); an event id adds its number. */
const EVENT_ID = /^([0-9a-f-]{36})\.([0-9a-f-]{36})\/(\d{1,9})$/;

/**
 * Loads `ioredis` and connects to `url`: sessions, response streams' events and relayed
 * cancellations then live in Redis. The store serves at once; while Redis cannot be
 * reached its commands fail after {@link COMMAND_TIMEOUT_MS} and {@link SessionStore.ready} says so.
 */
export async function openRedisSessionStore(settings: RedisStoreSettings): Promise<SessionStore> {
  const RedisClient = await loadIoredis();
  const redis = new RedisClient(settings.url, {
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  return new RedisSessionStore(redis, settings);
}

class RedisSessionStore implements SessionStore {
  /** This process among the replicas: the owner named in the ids of the streams it writes. */
  readonly shared = true;
  private readonly replicaId = uniqueId();
  private readonly subscriber: Redis;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly followers = new Set<Redis>();
  private reachable = true;

  constructor(
    private readonly redis: Redis,
    private readonly settings: RedisStoreSettings,
  ) {
    redis.on("error", (error: Error) => this.unreachable(error));
    redis.on("ready", () => {
      if (!this.reachable) settings.log.info("Redis reachable again");
      this.reachable = true;
    });
    this.subscriber = redis.duplicate();
    this.subscriber.on("error", () => {});
    this.subscriber.on("message", (_channel: string, text: string) => this.received(text));
    this.subscriber.subscribe(RELAY_CHANNEL).catch((error: Error) => this.unreachable(error));
    const beat = () =>
      void redis
        .set(replicaKey(this.replicaId), "1", "PX", HEARTBEAT_TTL_MS)
        .catch((error: Error) => this.unreachable(error));
    beat();
    this.heartbeat = setInterval(beat, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async save(id: string, record: SessionRecord): Promise<void> {
    await this.redis.set(sessionKey(id), JSON.stringify(record), "PX", this.settings.sessionTtlMs);
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const text = await this.redis.getex(sessionKey(id), "PX", this.settings.sessionTtlMs);
    return text === null ? undefined : (JSON.parse(text) as SessionRecord);
  }

  async remove(id: string): Promise<void> {
    await this.redis.del(sessionKey(id));
  }

  openStream(sessionId: string, requestId: RequestId): StreamLog {
    const streamId = `${this.replicaId}.${uniqueId()}`;
    const key = streamKey(sessionId, streamId);
    const request = JSON.stringify(requestId);
    let count = 0;
    return {
      append: (frame, final) => {
        count += 1;
        const fields = ["r", request, "d", frame, ...(final ? ["f", "1"] : [])];
        // One connection writes in order: the events land numbered as they were sent.
        this.redis
          .multi()
          .xadd(key, "MAXLEN", "~", STREAM_MAX_EVENTS, `0-${count}`, ...fields)
          .pexpire(key, STREAM_TTL_MS)
          .exec()
          .catch((error: Error) =>
            this.settings.log.warn(`cannot log a stream event in Redis: ${error.message}`),
          );
        return `${streamId}/${count}`;
      },
    };
  }

  async resume(sessionId: string, lastEventId: string, sink: StreamSink): Promise<boolean> {
    const at = EVENT_ID.exec(lastEventId);
    if (!at) return false;
    const [, owner = "", random = "", seq = "0"] = at;
    const key = streamKey(sessionId, `${owner}.${random}`);
    if ((await this.redis.exists(key)) === 0) return false;
    void this.follow({ key, owner, streamId: `${owner}.${random}`, after: Number(seq) }, sink);
    return true;
  }

  relay(message: RelayedMessage): void {
    const text = JSON.stringify({ from: this.replicaId, message });
    this.redis.publish(RELAY_CHANNEL, text).catch((error: Error) => {
      this.settings.log.warn(`cannot relay a ${message.kind} message through Redis: ${error.message}`);
    });
  }

  async ready(): Promise<boolean> {
    // Not connected (down, or reconnecting): say so at once rather than after a timeout.
    if (this.redis.status !== "ready") return false;
    try {
      return (await this.redis.ping()) === "PONG";
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const follower of this.followers) follower.disconnect();
    await this.redis.del(replicaKey(this.replicaId)).catch(() => {});
    this.subscriber.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * Writes a stream's events after `after` to `sink` as they come (a blocking read on a
   * connection of its own), until its answer; once no event comes and its writer's
   * liveness key is gone, the call died with its replica: the stream ends with an error answer.
   */
  private async follow(
    stream: { key: string; owner: string; streamId: string; after: number },
    sink: StreamSink,
  ): Promise<void> {
    const reader = this.redis.duplicate();
    reader.on("error", () => {});
    this.followers.add(reader);
    let last = `0-${stream.after}`;
    let requestId: RequestId | null = null;
    try {
      while (!sink.closed) {
        const read = await reader.xread("BLOCK", HEARTBEAT_MS, "STREAMS", stream.key, last);
        const entries = read?.[0]?.[1] ?? [];
        for (const [id, list] of entries) {
          last = id;
          const fields = fieldsOf(list);
          requestId = JSON.parse(fields.r ?? "null") as RequestId | null;
          sink.write(`${stream.streamId}/${id.slice(2)}`, fields.d ?? "");
          if (fields.f === "1") return;
        }
        if (entries.length > 0 || (await this.redis.exists(replicaKey(stream.owner))) === 1) continue;
        requestId ??= await this.requestOf(stream.key);
        const error = {
          code: REQUEST_ENDED_CODE,
          message: "Request ended without a result: the server running it stopped; call again",
        };
        sink.write(undefined, serializeErrorFrame(requestId, error, MAX_FRAME_BYTES));
        return;
      }
    } catch (error) {
      this.settings.log.warn(`resumed stream ${stream.streamId} broke off: ${(error as Error).message}`);
    } finally {
      this.followers.delete(reader);
      reader.disconnect();
      sink.end();
    }
  }

  /** The id of the request a stream answers (every event carries it). */
  private async requestOf(key: string): Promise<RequestId | null> {
    const [entry] = await this.redis.xrevrange(key, "+", "-", "COUNT", 1);
    return JSON.parse(fieldsOf(entry?.[1] ?? []).r ?? "null") as RequestId | null;
  }

  private received(text: string): void {
    try {
      const { from, message } = JSON.parse(text) as { from: string; message: RelayedMessage };
      if (from !== this.replicaId) this.settings.onRelayed(message);
    } catch (error) {
      this.settings.log.warn(`ignored a relayed message that is not JSON: ${(error as Error).message}`);
    }
  }

  /** Logs once per outage: a Redis that is down makes every reconnection attempt fail. */
  private unreachable(error: Error): void {
    if (!this.reachable) return;
    this.reachable = false;
    this.settings.log.error(`Redis unreachable at ${redactedUrl(this.settings.url)}: ${error.message}`);
  }
}

/** A Redis stream entry's flat `[field, value, …]` list as an object. */
function fieldsOf(list: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let index = 0; index + 1 < list.length; index += 2)
    fields[list[index] as string] = list[index + 1] as string;
  return fields;
}

/** The URL without its password, for logs. */
function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

async function loadIoredis(): Promise<typeof Redis> {
  try {
    const module = (await import(IOREDIS_MODULE)) as typeof import("ioredis");
    return module.Redis ?? module.default;
  } catch (error) {
    throw new Error(
      `sharing sessions on Redis needs the ioredis package next to the plugin (npm install ioredis): ${(error as Error).message}`,
    );
  }
}
