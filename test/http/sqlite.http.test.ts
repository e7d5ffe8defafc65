import { describeHttpApi } from './suites';

describeHttpApi('sqlite');
