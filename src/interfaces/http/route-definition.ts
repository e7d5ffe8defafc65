import type { z } from 'zod';
import type { Actor } from '../../domain';

/** What a handler gets: the body, path, query and headers, already checked against their schemas; who asks. */
export interface RouteInput<Body, Params, Query, Headers> {
  body: Body;
  params: Params;
  query: Query;
  headers: Headers;
  actor: Actor;
  /** The request's path and query, as the client sent them. */
  target: string;
}

/** A header of a success answer, as the OpenAPI document describes it. */
export interface ResponseHeader {
  description: string;
  /** JSON Schema of the value. */
  schema: Record<string, unknown>;
  /** Sent on every success of the route. */
  required: boolean;
}

/**
 * One wrapped endpoint. Its schemas are used twice: to check requests, and to write the
 * OpenAPI document, so the two cannot disagree.
 */
export interface RouteDefinition {
  method: 'get' | 'post';
  /** Express syntax: `/article/:id`. */
  path: string;
  /** Verb and noun (`listArticles`): the method name a client generated from the document gets. */
  operationId: string;
  summary: string;
  /** What the route does, for the documentation page. */
  description: string;
  group: 'Articles' | 'Tags and categories' | 'Feeds' | 'Keys' | 'Webhooks' | 'Operations';
  /** Writes need a key or the API token once one exists. */
  write: boolean;
  /** The JSON body; absent: the route reads none. */
  body?: z.ZodType;
  params?: z.ZodObject;
  /** Query parameters the route reads; the others are ignored. */
  query?: z.ZodObject;
  /** Request headers the route reads, by their usual spelling (`If-Match`). */
  headers?: z.ZodObject;
  /** The HTTP status and the `data` of a success. */
  status: 200 | 201;
  data: z.ZodType;
  /** A success that is not wrapped: its body is `data` itself, of this media type (UnwrappedBody). */
  unwrapped?: { mediaType: string };
  /** A GET whose ETag makes it conditional: 304, no body, when If-None-Match names the current tag. */
  notModified?: boolean;
  /** A GET that may answer 301 with a Location and the wrapper with this `data` (MovedPermanently). */
  movedPermanently?: { when: string; data: z.ZodType };
  /** Headers of a success, by name. */
  responseHeaders?: Readonly<Record<string, ResponseHeader>>;
  /** Failure statuses the route has beyond those its body, params and token imply. */
  failures?: ReadonlyArray<{ status: number; when: string }>;
  /** The data to wrap, or a WithHeaders or StreamedList (src/interfaces/http/response.ts). */
  handle(input: RouteInput<unknown, unknown, unknown, unknown>): Promise<unknown>;
}

type Schema = z.ZodType | undefined;
type Output<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** Types a route's handler by its schemas, then forgets the types so routes fit one table. */
export function defineRoute<
  Body extends Schema = undefined,
  Params extends z.ZodObject | undefined = undefined,
  Query extends z.ZodObject | undefined = undefined,
  Headers extends z.ZodObject | undefined = undefined,
>(
  route: Omit<RouteDefinition, 'body' | 'params' | 'query' | 'headers' | 'handle'> & {
    body?: Body;
    params?: Params;
    query?: Query;
    headers?: Headers;
    handle(input: RouteInput<Output<Body>, Output<Params>, Output<Query>, Output<Headers>>): Promise<unknown>;
  },
): RouteDefinition {
  return route as RouteDefinition;
}
