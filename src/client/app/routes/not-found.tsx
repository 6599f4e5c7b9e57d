import { session } from '@client/lib/auth/session';
import { PageHead } from '@client/lib/page-head';
import { TEXT } from '@shared/texts';
import { useNavigate } from 'react-router';

export function NotFound() {
  const navigate = useNavigate();
  return (
    <section className="flex min-h-[50vh] flex-col items-center justify-center gap-6 text-center">
      <PageHead title="Page not found" noindex />
      <p className="text-7xl font-extrabold text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold">{TEXT.notFound.message}</h1>
      <button
        type="button"
        className="btn btn-primary"
        onClick={async () => {
          // The spec's button signs the user out before going home.
          await session.signOut();
          navigate('/');
        }}
      >
        {TEXT.notFound.back}
      </button>
    </section>
  );
}
