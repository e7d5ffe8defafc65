import { documentAgreementSuite } from './document-agreement/document-agreement.suite';

documentAgreementSuite('sqlite', 1000);
