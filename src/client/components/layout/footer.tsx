import { Link } from 'react-router';

const groups = [
  {
    title: 'Services',
    links: ['Buy a phone', 'Sell a phone', 'Verified sellers', 'Card payments'],
  },
  { title: 'Company', links: ['About us', 'Contact', 'Careers', 'Press kit'] },
  { title: 'Legal', links: ['Terms of use', 'Privacy policy', 'Cookie policy'] },
] as const;

/** Placeholder link groups: every link points to the home page (spec section 1). */
export function Footer() {
  return (
    <footer className="mt-16 bg-neutral text-neutral-content">
      <div className="footer mx-auto max-w-6xl p-10 sm:footer-horizontal">
        {groups.map((g) => (
          <nav key={g.title} aria-label={g.title}>
            <h2 className="footer-title">{g.title}</h2>
            {g.links.map((label) => (
              <Link key={label} to="/" className="link link-hover">
                {label}
              </Link>
            ))}
          </nav>
        ))}
      </div>
      <p className="border-t border-neutral-content/20 py-4 text-center text-sm">
        © {new Date().getFullYear()} Phone Market. Used phones, honest prices.
      </p>
    </footer>
  );
}
