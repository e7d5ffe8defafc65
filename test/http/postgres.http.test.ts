import { describeHttpApi } from './suites';

describeHttpApi('postgres');
