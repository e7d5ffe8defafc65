import { documentAgreementSuite } from './document-agreement/document-agreement.suite';

documentAgreementSuite('memory', 1000);
