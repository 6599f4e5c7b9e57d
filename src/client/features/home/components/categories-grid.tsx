import { TEXT } from '@shared/texts';
import { Link } from 'react-router';
import { useCategories } from '../api/get-categories';

export function CategoriesGrid() {
  const { data: categories } = useCategories();
  return (
    <section aria-labelledby="categories-heading" className="space-y-4">
      <h2 id="categories-heading" className="text-2xl font-bold">
        {TEXT.home.categories}
      </h2>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {categories.map((c) => (
          <li key={c.categoryId}>
            <Link
              to={`/category/${c.categoryId}`}
              className="btn btn-outline btn-primary btn-lg w-full"
            >
              {c.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
