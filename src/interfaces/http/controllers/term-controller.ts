import type { ListCategories, ListTags } from '../../../application';
import { presentTerm, type TermJson } from '../presenters';

export class TermController {
  constructor(
    private readonly listTagsUseCase: ListTags,
    private readonly listCategoriesUseCase: ListCategories,
  ) {}

  async listTags(): Promise<TermJson[]> {
    return (await this.listTagsUseCase.execute()).map(presentTerm);
  }

  async listCategories(): Promise<TermJson[]> {
    return (await this.listCategoriesUseCase.execute()).map(presentTerm);
  }
}
