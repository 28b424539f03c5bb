import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** An attribute as OTLP/JSON writes it. */
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}

/** A span as OTLP/JSON writes it, with the fields the tests read. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
  status?: { code?: number };
}

/** A metric as OTLP/JSON writes it: a sum or a histogram, with its data points. */
export interface OtlpMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints: { attributes: OtlpAttribute[]; asInt?: string | number; asDouble?: number }[] };
  histogram?: { dataPoints: { attributes: OtlpAttribute[]; count: string | number }[] };
}

/**
 * A real OTLP/HTTP receiver on 127.0.0.1 taking the JSON protocol (`http/json`): it keeps
 * every request body as received, and answers each export with an empty success.
 */
export class OtlpReceiver {
  /** Every body received, by path (`/v1/traces`, `/v1/metrics`, …). */
  readonly bodies: { path: string; text: string }[] = [];
  private readonly server: Server;

  private constructor(server: Server) {
    this.server = server;
  }

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        receiver?.bodies.push({ path: request.url ?? "", text: Buffer.concat(chunks).toString("utf8") });
        response.writeHead(200, { "content-type": "application/json" });
        response.end("{}");
      });
    });
    receiver = new OtlpReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  /** The endpoint for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every span received. */
  spans(): OtlpSpan[] {
    return this.parsed("/v1/traces").flatMap((body) =>
      (body.resourceSpans ?? []).flatMap((resource: { scopeSpans?: { spans?: OtlpSpan[] }[] }) =>
        (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
      ),
    );
  }

  /** Every metric received. */
  metrics(): OtlpMetric[] {
    return this.parsed("/v1/metrics").flatMap((body) =>
      (body.resourceMetrics ?? []).flatMap((resource: { scopeMetrics?: { metrics?: OtlpMetric[] }[] }) =>
        (resource.scopeMetrics ?? []).flatMap((scope) => scope.metrics ?? []),
      ),
    );
  }

  /** Every body received, as one text: what a secret must not be found in. */
  everything(): string {
    return this.bodies.map((body) => body.text).join("\n");
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private parsed(path: string) {
    return this.bodies.filter((body) => body.path === path).map((body) => JSON.parse(body.text));
  }
}

/** The value of attribute `key`, whatever its type. */
export function attribute(attributes: OtlpAttribute[], key: string): unknown {
  const value = attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  return value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue;
}
