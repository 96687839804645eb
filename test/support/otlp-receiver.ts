import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/** One span as the receiver keeps it, whatever encoding it came in. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

/**
 * The part of OTLP's trace schema (opentelemetry/proto/collector/trace/v1) a test reads, with the
 * field numbers of the published .proto files; fields left out are skipped by the decoder.
 */
const OTLP_TRACES = protobuf.Root.fromJSON({
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue'] } },
      fields: {
        stringValue: { type: 'string', id: 1 },
        boolValue: { type: 'bool', id: 2 },
        intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 },
      },
    },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    Link: { fields: { traceId: { type: 'bytes', id: 1 }, spanId: { type: 'bytes', id: 2 } } },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        parentSpanId: { type: 'bytes', id: 4 },
        name: { type: 'string', id: 5 },
        kind: { type: 'int32', id: 6 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
        links: { rule: 'repeated', type: 'Link', id: 13 },
      },
    },
    ScopeSpans: { fields: { spans: { rule: 'repeated', type: 'Span', id: 2 } } },
    ResourceSpans: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
      },
    },
    ExportTraceServiceRequest: {
      fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } },
    },
  },
}).lookupType('ExportTraceServiceRequest');

interface WireValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
interface WireSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: { key: string; value?: WireValue }[];
  links?: { traceId: string; spanId: string }[];
}
interface WireRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value?: WireValue }[] };
    scopeSpans?: { spans?: WireSpan[] }[];
  }[];
}

const valueOf = (v: WireValue | undefined): unknown =>
  v?.stringValue ??
  v?.boolValue ??
  (v?.intValue !== undefined ? Number(v.intValue) : v?.doubleValue);

const attributesOf = (list: { key: string; value?: WireValue }[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

/** protobufjs gives bytes as base64 in toObject; OTLP/JSON gives hex. */
function decodeProtobuf(body: Buffer): WireRequest {
  const message = OTLP_TRACES.decode(body);
  const hex = (b: unknown) => Buffer.from(b as Uint8Array).toString('hex');
  const object = OTLP_TRACES.toObject(message, { longs: String, bytes: Array, defaults: false });
  const spans = (object as WireRequest).resourceSpans ?? [];
  for (const rs of spans)
    for (const ss of rs.scopeSpans ?? [])
      for (const span of ss.spans ?? []) {
        span.traceId = hex(span.traceId);
        span.spanId = hex(span.spanId);
        span.parentSpanId = span.parentSpanId ? hex(span.parentSpanId) : '';
        for (const link of span.links ?? []) {
          link.traceId = hex(link.traceId);
          link.spanId = hex(link.spanId);
        }
      }
  return object as WireRequest;
}

export interface OtlpReceiver {
  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporters add /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the export requests received (application/json, application/x-protobuf). */
  encodings: Set<string>;
  close(): Promise<void>;
}

/** An OTLP/HTTP trace receiver on loopback that decodes http/json and http/protobuf exports. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const encodings = new Set<string>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        let body = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const type = (request.headers['content-type'] ?? '').split(';')[0]!;
        encodings.add(type);
        const decoded: WireRequest =
          type === 'application/json'
            ? (JSON.parse(body.toString('utf8')) as WireRequest)
            : decodeProtobuf(body);
        for (const rs of decoded.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
          for (const ss of rs.scopeSpans ?? [])
            for (const span of ss.spans ?? [])
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind ?? 0,
                attributes: attributesOf(span.attributes),
                links: span.links ?? [],
              });
        }
        response.writeHead(200, { 'content-type': type || 'application/json' });
        response.end(type === 'application/json' ? '{}' : '');
      } catch (error) {
        response.writeHead(400);
        response.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    encodings,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
