import type { z } from 'zod';

/** What a handler gets: the body and path parameters, already checked against their schemas. */
export interface RouteInput<Body, Params> {
  body: Body;
  params: Params;
}

/**
 * One wrapped endpoint. Its schemas are used twice: to check requests, and to write the
 * OpenAPI document, so the two cannot disagree.
 */
export interface RouteDefinition {
  method: 'get' | 'post';
  /** Express syntax: `/article/:id`. */
  path: string;
  summary: string;
  group: 'Articles' | 'Tags and categories' | 'Operations';
  /** Writes need the API token when one is configured. */
  write: boolean;
  /** The JSON body; absent: the route reads none. */
  body?: z.ZodType;
  params?: z.ZodObject;
  /** The HTTP status and the `data` of a success. */
  status: 200 | 201;
  data: z.ZodType;
  /** Failure statuses the route has beyond those its body, params and token imply. */
  failures?: ReadonlyArray<{ status: number; when: string }>;
  handle(input: RouteInput<unknown, unknown>): Promise<unknown>;
}

type Schema = z.ZodType | undefined;
type Output<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** Types a route's handler by its schemas, then forgets the types so routes fit one table. */
export function defineRoute<Body extends Schema = undefined, Params extends z.ZodObject | undefined = undefined>(
  route: Omit<RouteDefinition, 'body' | 'params' | 'handle'> & {
    body?: Body;
    params?: Params;
    handle(input: RouteInput<Output<Body>, Output<Params>>): Promise<unknown>;
  },
): RouteDefinition {
  return route as RouteDefinition;
}
