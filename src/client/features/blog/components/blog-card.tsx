import { Modal } from '@client/components/ui/modal';
import type { BlogItem } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { useState } from 'react';
import { previewOf } from '../preview';

export function BlogCard({ article }: { article: BlogItem }) {
  // Mounted only while open, so the full answers stay out of the page until asked for.
  const [open, setOpen] = useState(false);
  return (
    <article className="card bg-base-100 shadow-sm ring-1 ring-base-300">
      <div className="card-body">
        <h2 className="card-title">{article.question}</h2>
        <p>
          {previewOf(article.answer)}
          {'… '}
          <button
            type="button"
            className="link link-primary font-semibold"
            onClick={() => setOpen(true)}
          >
            {TEXT.blog.readMore}
            <span className="sr-only">: {article.question}</span>
          </button>
        </p>
      </div>
      {open && (
        <Modal
          open
          onClose={() => setOpen(false)}
          title={article.question}
          actions={
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {TEXT.blog.close}
            </button>
          }
        >
          <div className="space-y-3">
            {article.answer.split('\n\n').map((paragraph) => (
              <p key={paragraph.slice(0, 40)}>{paragraph}</p>
            ))}
          </div>
        </Modal>
      )}
    </article>
  );
}
