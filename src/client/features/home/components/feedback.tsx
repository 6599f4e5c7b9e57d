import { TEXT } from '@shared/texts';

const reviews = [
  {
    name: 'Priya S.',
    role: 'Bought a Galaxy S22',
    text: 'The phone was exactly as described, the seller was verified and we met at a busy café. Paying by card felt safer than carrying cash.',
  },
  {
    name: 'Daniel O.',
    role: 'Sold an iPhone 12',
    text: 'Listing took two minutes and my phone sold the same week. Advertising it on the home page really helped.',
  },
] as const;

/** Two static sample reviews (spec section 1). */
export function Feedback() {
  return (
    <section aria-labelledby="feedback-heading" className="space-y-4">
      <h2 id="feedback-heading" className="text-2xl font-bold">
        {TEXT.home.feedback}
      </h2>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        {reviews.map((r) => (
          <figure key={r.name} className="card bg-base-200">
            <blockquote className="card-body">
              <p>“{r.text}”</p>
            </blockquote>
            <figcaption className="px-8 pb-6 text-sm">
              <strong>{r.name}</strong>, {r.role}
            </figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}
