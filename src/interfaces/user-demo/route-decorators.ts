import 'reflect-metadata';

/**
 * A tiny decorator-driven router for the demonstration user routes: `@Controller(prefix)` on a
 * class and `@Get(path)` / `@Post(path)` on its methods record routes as metadata.
 */
const PREFIX = Symbol('userDemo:prefix');
const ROUTES = Symbol('userDemo:routes');

export type DemoMethod = 'GET' | 'POST';

interface RecordedRoute {
  method: DemoMethod;
  path: string;
  propertyKey: string | symbol;
}

export interface DemoRoute {
  method: DemoMethod;
  url: string;
  handle: () => unknown;
}

export function Controller(prefix: string): ClassDecorator {
  return (target) => Reflect.defineMetadata(PREFIX, prefix, target);
}

function routeDecorator(method: DemoMethod) {
  return (path: string): MethodDecorator =>
    (target, propertyKey) => {
      const routes: RecordedRoute[] = Reflect.getMetadata(ROUTES, target.constructor) ?? [];
      Reflect.defineMetadata(ROUTES, [...routes, { method, path, propertyKey }], target.constructor);
    };
}

export const Get = routeDecorator('GET');
export const Post = routeDecorator('POST');

/** The routes recorded on a controller instance, with handlers bound to it. */
export function readRoutes(controller: object): DemoRoute[] {
  const type = controller.constructor;
  const prefix: string = Reflect.getMetadata(PREFIX, type) ?? '';
  const routes: RecordedRoute[] = Reflect.getMetadata(ROUTES, type) ?? [];
  return routes.map(({ method, path, propertyKey }) => {
    const handler = (controller as Record<string | symbol, () => unknown>)[propertyKey];
    if (typeof handler !== 'function') throw new Error(`${type.name}.${String(propertyKey)} is not a method`);
    return { method, url: `${prefix}${path}`, handle: handler.bind(controller) };
  });
}
