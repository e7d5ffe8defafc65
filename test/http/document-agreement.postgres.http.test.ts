import { documentAgreementSuite } from './document-agreement/document-agreement.suite';

documentAgreementSuite('postgres', 1000);
