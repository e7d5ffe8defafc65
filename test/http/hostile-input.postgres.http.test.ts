import { hostileInputSuite } from './hostile/hostile-input.suite';

// Fewer runs than on memory and SQLite: the properties are the same, each write is a round trip here.

hostileInputSuite('postgres', 25);
