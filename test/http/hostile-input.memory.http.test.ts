import { hostileInputSuite } from './hostile/hostile-input.suite';

hostileInputSuite('memory', 100);
