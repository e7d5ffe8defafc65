import type { Clock, SeedArticles } from '../../../application';
import type { Actor } from '../../../domain';
import { StreamedList } from '../response';
import { presented } from './article-controller';

export class SeedController {
  constructor(
    private readonly seedArticles: SeedArticles,
    private readonly clock: Clock,
  ) {}

  /** A GET that writes, as in the original API; it answers what GET /article would, streamed the same way. */
  async create(actor: Actor): Promise<StreamedList> {
    return new StreamedList(presented(await this.seedArticles.execute(actor), this.clock));
  }
}
