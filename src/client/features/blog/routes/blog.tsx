import { PageHead } from '@client/lib/page-head';
import { TEXT } from '@shared/texts';
import { blogArticles } from '../articles';
import { BlogCard } from '../components/blog-card';

export function BlogRoute() {
  return (
    <section aria-labelledby="blog-heading" className="space-y-6">
      <PageHead
        title="Blog"
        description="Answers to common questions about buying and reselling used phones."
        path="/blog"
      />
      <h1 id="blog-heading" className="text-3xl font-bold">
        {TEXT.blog.title}
      </h1>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        {blogArticles.map((a) => (
          <BlogCard key={a.id} article={a} />
        ))}
      </div>
    </section>
  );
}
