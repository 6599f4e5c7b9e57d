import { BLOG_ARTICLE_COUNT } from '@shared/constants';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { blogArticles } from '../articles';
import { BlogRoute } from './blog';

describe('BlogRoute', () => {
  it('shows four articles on the four topics of the spec', () => {
    render(<BlogRoute />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to blog' })).toBeInTheDocument();
    const cards = screen.getAllByRole('article');
    expect(cards).toHaveLength(BLOG_ARTICLE_COUNT);
    const questions = cards.map((c) => within(c).getByRole('heading').textContent ?? '');
    expect(questions[0]).toMatch(/state/i);
    expect(questions[1]).toMatch(/prototyp/i);
    expect(questions[2]).toMatch(/unit test/i);
    expect(questions[3]).toMatch(/React.*Angular.*Vue/);
  });

  it('previews the first 120 characters of each answer followed by read more', () => {
    render(<BlogRoute />);
    for (const [i, card] of screen.getAllByRole('article').entries()) {
      const answer = blogArticles[i]?.answer ?? '';
      const paragraph = within(card).getByText(
        (_, el) => el?.tagName === 'P' && el.textContent?.startsWith(answer.slice(0, 20)) === true,
      );
      expect(paragraph.textContent).toContain(answer.slice(0, 120));
      expect(paragraph.textContent).not.toContain(answer.slice(0, 121));
      expect(within(paragraph).getByRole('button', { name: /read more/ })).toBeInTheDocument();
    }
  });

  it('opens the whole article in a modal and closes it', async () => {
    render(<BlogRoute />);
    const article = blogArticles[0];
    if (!article) throw new Error('no article');
    const card = screen.getAllByRole('article')[0] as HTMLElement;
    await userEvent.click(within(card).getByRole('button', { name: /read more/ }));
    const dialog = screen.getByRole('dialog', { name: article.question });
    expect(dialog).toHaveTextContent(article.answer.split('\n\n').at(-1) ?? '');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
