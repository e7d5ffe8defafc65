import { keyRepositoryContract } from '../key-repository';
import { authorsContract } from './authors';
import { conditionalWritesContract } from './conditional-writes';
import { createAndReadContract } from './create-and-read';
import { dataVersionContract } from './data-version';
import { deleteContract } from './delete';
import { keyedCreatesContract } from './keyed-creates';
import { latestReplacementContract } from './latest-replacement';
import { listsAndPagesContract } from './lists-and-pages';
import { publishingContract } from './publishing';
import { revisionsContract } from './revisions';
import { searchContract } from './search';
import { searchAgreesWithOracleContract } from './search-agrees-with-oracle';
import { slugsContract } from './slugs';
import { type OpenContractSubject, sharedContractSubject } from './subject';
import { tagsAndCategoriesContract } from './tags-and-categories';
import { updateContract } from './update';
import { wholeListStreamContract } from './whole-list-stream';

export type { ContractSubject, OpenContractSubject } from './subject';

/**
 * Every expectation of the ArticleRepository port, one behaviour to a file. Each adapter's
 * test file calls this unchanged; passing it is what makes the adapters interchangeable.
 */
export function articleRepositoryContract(name: string, open: OpenContractSubject): void {
  describe(`ArticleRepository contract: ${name}`, () => {
    const shared = sharedContractSubject(open);
    afterAll(() => shared.closeShared());

    createAndReadContract(shared.open);
    listsAndPagesContract(shared.open);
    tagsAndCategoriesContract(shared.open);
    searchContract(shared.open);
    searchAgreesWithOracleContract(shared.open);
    wholeListStreamContract(shared.open);
    dataVersionContract(shared.open);
    deleteContract(shared.open);
    conditionalWritesContract(shared.open);
    updateContract(shared.open);
    keyedCreatesContract(shared.open);
    latestReplacementContract(shared.open);
    publishingContract(shared.open);
    slugsContract(shared.open);
    revisionsContract(shared.open);
    authorsContract(shared.open);
    // The keys live on the same storage as the articles their authors write.
    keyRepositoryContract(shared.open);
  });
}
