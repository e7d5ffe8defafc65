import type { ArticleRepository, KeyRepository } from '../../../src/application';

/** One adapter's repository, opened on storage of its own. */
export interface ContractSubject {
  repository: ArticleRepository;
  /** The keys (and authors) of the same storage: the authors of its articles. */
  keys: KeyRepository;
  /** Empties the storage between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** What each adapter's test file hands the contract: opens a new subject. */
export type OpenContractSubject = () => Promise<ContractSubject>;

/**
 * Opens a subject for the enclosing describe and hands `use` its repository before each test,
 * on storage emptied for that test.
 */
export function useContractSubject(open: OpenContractSubject, use: (repository: ArticleRepository) => void): void {
  let subject: ContractSubject;

  beforeAll(async () => {
    subject = await open();
  });
  beforeEach(async () => {
    await subject.reset();
    use(subject.repository);
  });
  afterAll(async () => {
    await subject.close();
  });
}

/** As useContractSubject, handing `use` the whole subject: its articles and its keys, on one storage. */
export function useContractStore(
  open: OpenContractSubject,
  use: (store: Pick<ContractSubject, 'repository' | 'keys'>) => void,
): void {
  let subject: ContractSubject;
  beforeAll(async () => {
    subject = await open();
  });
  beforeEach(async () => {
    await subject.reset();
    use({ repository: subject.repository, keys: subject.keys });
  });
  afterAll(async () => {
    await subject.close();
  });
}

/**
 * The subject `open` gives, opened at the first call and handed to every later one; each
 * caller's close leaves it open, and `closeShared` closes it. The behaviours of the contract
 * then share one storage per adapter, as one database (and for PgBouncer, one pooler) per
 * test file keeps the run short.
 */
export function sharedContractSubject(open: OpenContractSubject): {
  open: OpenContractSubject;
  closeShared(): Promise<void>;
} {
  let opened: Promise<ContractSubject> | undefined;
  return {
    open: async () => {
      opened ??= open();
      const subject = await opened;
      return {
        // Read at each use: a reset may put a new repository in place (the in-memory adapter does).
        get repository() {
          return subject.repository;
        },
        get keys() {
          return subject.keys;
        },
        reset: () => subject.reset(),
        close: async () => {},
      };
    },
    closeShared: async () => {
      if (opened) await (await opened).close();
    },
  };
}
