import type { ListCategories, ListTags } from '../../../application';
import { presentTerm } from '../presenters';
import type { HttpSuccess } from '../response';

export class TermController {
  constructor(
    private readonly listTagsUseCase: ListTags,
    private readonly listCategoriesUseCase: ListCategories,
  ) {}

  listTags = async (): Promise<HttpSuccess> => {
    const tags = await this.listTagsUseCase.execute();
    return { status: 200, data: tags.map(presentTerm) };
  };

  listCategories = async (): Promise<HttpSuccess> => {
    const categories = await this.listCategoriesUseCase.execute();
    return { status: 200, data: categories.map(presentTerm) };
  };
}
