import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * An OTLP/HTTP trace receiver of the test's own, on loopback: it takes what the service's
 * exporter POSTs to /v1/traces (protobuf, the OTLP default), decodes the few fields the tests
 * read, and answers 200 with an empty ExportTraceServiceResponse, as a collector does.
 */

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** The attributes of the resource (the process) that sent it. */
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter adds /v1/traces. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Export requests received, whatever they held. */
  requests: number;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const receiver = { spans, requests: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      receiver.requests++;
      const body = Buffer.concat(chunks);
      const raw = request.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body;
      spans.push(...decodeExportTraceServiceRequest(raw));
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

// The protobuf wire format, just enough for opentelemetry/proto/collector/trace/v1 requests.

interface Field {
  number: number;
  /** A varint or fixed number as bigint, a length-delimited field as its bytes. */
  value: bigint | Buffer;
}

function fieldsOf(buffer: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >> 3;
    switch (key & 7) {
      case 0:
        fields.push({ number, value: varint() });
        break;
      case 1:
        fields.push({ number, value: buffer.readBigUInt64LE(at) });
        at += 8;
        break;
      case 2: {
        const length = Number(varint());
        fields.push({ number, value: buffer.subarray(at, at + length) });
        at += length;
        break;
      }
      case 5:
        fields.push({ number, value: BigInt(buffer.readUInt32LE(at)) });
        at += 4;
        break;
      default:
        throw new Error(`unexpected wire type ${key & 7}`);
    }
  }
  return fields;
}

const bytesOf = (fields: Field[], number: number): Buffer[] =>
  fields.filter((field) => field.number === number).map((field) => field.value as Buffer);
const firstBytes = (fields: Field[], number: number): Buffer => bytesOf(fields, number)[0] ?? Buffer.alloc(0);

/** KeyValue { 1 key; 2 AnyValue { 1 string, 2 bool, 3 int, 4 double } }. */
function attributesOf(keyValues: Buffer[]): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const keyValue of keyValues) {
    const fields = fieldsOf(keyValue);
    const [value] = fieldsOf(firstBytes(fields, 2));
    if (!value) continue;
    const key = firstBytes(fields, 1).toString('utf8');
    if (value.number === 1) attributes[key] = (value.value as Buffer).toString('utf8');
    else if (value.number === 2) attributes[key] = value.value === 1n;
    else if (value.number === 3) attributes[key] = Number(BigInt.asIntN(64, value.value as bigint));
    else if (value.number === 4)
      attributes[key] = new Float64Array(new BigUint64Array([value.value as bigint]).buffer)[0] ?? 0;
  }
  return attributes;
}

/**
 * ExportTraceServiceRequest { 1 ResourceSpans { 1 Resource { 1 attributes }, 2 ScopeSpans
 * { 2 Span { 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes } } } }.
 */
function decodeExportTraceServiceRequest(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of bytesOf(fieldsOf(body), 1)) {
    const fields = fieldsOf(resourceSpans);
    const resource = attributesOf(bytesOf(fieldsOf(firstBytes(fields, 1)), 1));
    for (const scopeSpans of bytesOf(fields, 2)) {
      for (const span of bytesOf(fieldsOf(scopeSpans), 2)) {
        const s = fieldsOf(span);
        spans.push({
          traceId: firstBytes(s, 1).toString('hex'),
          spanId: firstBytes(s, 2).toString('hex'),
          parentSpanId: firstBytes(s, 4).toString('hex'),
          name: firstBytes(s, 5).toString('utf8'),
          kind: Number(s.find((field) => field.number === 6)?.value ?? 0n),
          attributes: attributesOf(bytesOf(s, 9)),
          resource,
        });
      }
    }
  }
  return spans;
}
