import type { NextFunction, Request } from 'express';
import { decoratedRouter } from '../../../src/interfaces/user-demo/decorated-router';
import { Controller, Get, Post, readRoutes } from '../../../src/interfaces/user-demo/route-decorators';
import { UserController } from '../../../src/interfaces/user-demo/user-controller';
import { recordingResponse } from '../../support/recording-response';

@Controller('/x')
class ExampleController {
  constructor(private readonly answer: string) {}

  @Get('/y')
  read() {
    return { answer: this.answer };
  }

  @Post('/z')
  write() {
    return 'written';
  }
}

class Undecorated {
  @Get('/bare')
  bare() {
    return 'bare';
  }
}

describe('readRoutes', () => {
  it('reads GET /user/list and POST /user/add from UserController', () => {
    const routes = readRoutes(new UserController());

    expect(routes.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /user/list', 'POST /user/add']);
  });

  it('binds handlers that answer the demonstration bodies', () => {
    const [list, add] = readRoutes(new UserController());
    const listed = list?.handle() as { success: boolean; code: number; data: { name: string; age: number }[] };

    expect(listed).toMatchObject({ success: true, code: 10000 });
    expect(listed.data.length).toBeGreaterThanOrEqual(2);
    expect(listed.data).toContainEqual({ name: expect.any(String), age: 18 });
    expect(add?.handle()).toEqual({ success: true, code: 10000 });
  });

  it('reads the routes of any decorated class, bound to the given instance', () => {
    const routes = readRoutes(new ExampleController('forty-two'));

    expect(routes.map(({ method, url }) => `${method} ${url}`)).toEqual(['GET /x/y', 'POST /x/z']);
    expect(routes[0]?.handle()).toEqual({ answer: 'forty-two' });
    expect(routes[1]?.handle()).toBe('written');
  });

  it('uses no prefix on a class without @Controller', () => {
    expect(readRoutes(new Undecorated()).map((route) => route.url)).toEqual(['/bare']);
  });

  it('answers no routes for a class without decorators', () => {
    expect(readRoutes(new (class Plain {})())).toEqual([]);
  });
});

describe('decoratedRouter', () => {
  /** Runs the middleware on a fake exchange and tells what it did. */
  function serve(method: string, originalUrl: string) {
    const { response, answer } = recordingResponse();
    let passedOn = false;
    const next: NextFunction = () => {
      passedOn = true;
    };
    decoratedRouter([new UserController(), new ExampleController('a')])(
      { method, originalUrl } as Request,
      response,
      next,
    );
    return { passedOn, ...answer };
  }

  it('serves an exact method and URL with a 200 and the handler result', () => {
    expect(serve('POST', '/user/add')).toEqual({ passedOn: false, status: 200, body: { success: true, code: 10000 } });
    expect(serve('GET', '/x/y')).toEqual({ passedOn: false, status: 200, body: { answer: 'a' } });
  });

  it.each([
    ['GET', '/user/list?x=1'],
    ['GET', '/user/list/'],
    ['GET', '/USER/LIST'],
    ['POST', '/user/list'],
    ['GET', '/user/add'],
    ['GET', '/user'],
  ])('passes %s %s on to the rest of the app', (method, url) => {
    expect(serve(method, url)).toEqual({ passedOn: true });
  });
});
