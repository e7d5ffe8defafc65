import { describeHttpApi } from './suites';

describeHttpApi('memory');
