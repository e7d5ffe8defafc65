import { Controller, Get, Post } from './route-decorators';

export interface DemoUser {
  name: string;
  age: number;
}

const DEMO_USERS: readonly DemoUser[] = [
  { name: 'Alice', age: 18 },
  { name: 'Bob', age: 20 },
];

/** Demonstration routes: fixed answers, outside the article wrapper, no storage. */
@Controller('/user')
export class UserController {
  @Get('/list')
  list() {
    return { success: true, code: 10000, data: DEMO_USERS.map((user) => ({ ...user })) };
  }

  @Post('/add')
  add() {
    return { success: true, code: 10000 };
  }
}
