import { hostileInputSuite } from './hostile/hostile-input.suite';

hostileInputSuite('sqlite', 100);
